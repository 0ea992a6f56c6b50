/** SQLite's cached "the index is there" (src/store/sqlite/schema-presence.ts) against the schema cookie. */
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { SchemaPresence } from '../../src/store/sqlite/schema-presence.js'

function fixture() {
  const raw = new Database(':memory:')
  raw.exec('CREATE TABLE t (x INTEGER, y INTEGER); CREATE INDEX t_x ON t (x)')
  const presence = new SchemaPresence(raw)
  const find = raw.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?`).pluck()
  let lookups = 0
  const has = (name: string) =>
    presence.has('index', name, () => {
      lookups++
      return find.get(name)
    })
  return { raw, presence, has, lookups: () => lookups }
}

describe('SchemaPresence', () => {
  it('looks an index up once while the schema stays, again once it changed', () => {
    const { raw, presence, has, lookups } = fixture()
    raw.exec('BEGIN IMMEDIATE')
    presence.began()
    expect([has('t_x'), has('t_x'), has('t_x')]).toEqual([true, true, true])
    expect(lookups()).toBe(1)
    raw.exec('DROP INDEX t_x')
    expect(has('t_x')).toBe(false)
    raw.exec('COMMIT')
    expect(lookups()).toBe(2)
  })

  // The cookie of a change rolled back comes again with another change: what was seen at it then is not the schema now.
  it('a "there" seen after a change that was rolled back is not taken for the schema that gets the same cookie later', () => {
    const { raw, presence, has } = fixture()
    raw.exec('BEGIN IMMEDIATE')
    presence.began()
    raw.exec('CREATE INDEX t_y ON t (y)')
    expect(has('t_y')).toBe(true)
    raw.exec('ROLLBACK')
    raw.exec('BEGIN IMMEDIATE')
    presence.began()
    raw.exec('CREATE INDEX t_xy ON t (x, y)')
    expect(has('t_y')).toBe(false)
    raw.exec('ROLLBACK')
  })

  it('a change by another connection to the file is seen', () => {
    const { raw, presence, has } = fixture()
    raw.exec('BEGIN IMMEDIATE')
    presence.began()
    expect(has('t_x')).toBe(true)
    raw.exec('COMMIT')
    // The same connection stands for another process here: the change is committed, the cookie moved.
    raw.exec('DROP INDEX t_x')
    raw.exec('BEGIN IMMEDIATE')
    presence.began()
    expect(has('t_x')).toBe(false)
    raw.exec('COMMIT')
  })
})
