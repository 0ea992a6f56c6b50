import { describe, expect, it } from 'vitest'
import { redactPasswords } from '../../src/kernel/redact.js'

describe('redactPasswords', () => {
  it.each([
    ['postgres://user:secret@db.example:5432/fin', 'postgres://user:***@db.example:5432/fin'],
    ['postgresql://:secret@db/fin', 'postgresql://:***@db/fin'],
    ['cannot open postgres://u:p@ss@w0rd@db/fin?schema=a: refused', 'cannot open postgres://u:***@db/fin?schema=a: refused'],
    ['postgres://u@db/fin?sslmode=require&password=secret&x=1', 'postgres://u@db/fin?sslmode=require&password=***&x=1'],
    ['two: postgres://a:one@h1/x and postgres://b:two@h2/y', 'two: postgres://a:***@h1/x and postgres://b:***@h2/y'],
  ])('%s', (text, expected) => {
    expect(redactPasswords(text)).toBe(expected)
  })

  it('leaves URLs without a password, paths and plain text alone', () => {
    for (const text of ['postgres://user@db/fin', '/home/me/finctl.db', 'http://127.0.0.1:8080/api-v1', 'a: b@c'])
      expect(redactPasswords(text)).toBe(text)
  })
})
