/**
 * A lookup before a job that opens its own client: a whole account id opens no client at all, and
 * the Context's client, once released, is closed and opened anew on the next call (tx import's
 * thread then holds the only core of the process: its peak memory, docs/performance.md).
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Context } from '../../src/cli/context.js'
import { resolveAccountId } from '../../src/cli/short-ids.js'
import type { Client } from '../../src/client/client.js'
import { InProcessSandbox, memoryIO } from '../helpers/in-process-cli.js'

describe('resolveAccountId', () => {
  it('answers a whole id without opening the client it was handed', async () => {
    const id = '0193a0c4-7f2e-7c1a-9b1e-3f5d2a6c8e01'
    let opened = 0
    const open = async (): Promise<Client> => {
      opened++
      throw new Error('no client should be opened for a whole id')
    }
    expect(await resolveAccountId(open, id)).toBe(id)
    expect(opened).toBe(0)
  })

  it('opens it for a name, once', async () => {
    let opened = 0
    const client = {
      accounts: { list: async () => ({ data: [{ id: '0193a0c4-0000-7000-8000-00000000beef', name: 'Operating', status: 'active' }] }) },
    } as unknown as Client
    const open = async () => {
      opened++
      return client
    }
    expect(await resolveAccountId(open, 'operating')).toBe('0193a0c4-0000-7000-8000-00000000beef')
    expect(opened).toBe(1)
  })
})

describe('Context.releaseClient', () => {
  const sb = new InProcessSandbox('release')
  beforeAll(async () => {
    await sb.ok(['init', '--company', 'Release Co', '--currency', 'USD', '--email', 'o@release.test', '--password-stdin', '--no-input'], {
      input: 'password-for-release\n',
    })
  })
  afterAll(() => sb.cleanup())

  it('closes the client opened so far; the next call opens another that works', async () => {
    const ctx = new Context(memoryIO(sb.env()).io, {})
    try {
      const first = await ctx.client()
      expect((await first.accounts.list()).data).toEqual([])
      await ctx.releaseClient()
      // The released core is closed: a request through it is refused, not answered.
      await expect(first.accounts.list()).rejects.toThrow('the embedded core is closed')
      const second = await ctx.client()
      expect(second).not.toBe(first)
      expect((await second.accounts.list()).data).toEqual([])
      // Nothing opened: nothing to close.
      await ctx.releaseClient()
      await ctx.releaseClient()
    } finally {
      await ctx.close()
    }
  })

  it('tx import with a whole account id opens no client of its own; with a name, it closes it before the import', async () => {
    const account = (await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Main', '--type', 'checking', '--json'])).id
    const file = sb.path('two.csv')
    writeFileSync(file, 'date,amount,description\n2026-01-02,-1.00,One\n2026-01-03,-2.00,Two\n')
    const opened = vi.spyOn(Context.prototype, 'client')
    const released = vi.spyOn(Context.prototype, 'releaseClient')
    try {
      await sb.ok(['tx', 'import', file, '--account', account, '--dry-run'])
      expect(opened).not.toHaveBeenCalled()
      await sb.ok(['tx', 'import', file, '--account', 'main'])
      expect(opened).toHaveBeenCalledTimes(1)
      expect(released).toHaveBeenCalled()
      expect(released.mock.invocationCallOrder.at(-1)!).toBeGreaterThan(opened.mock.invocationCallOrder[0])
    } finally {
      opened.mockRestore()
      released.mockRestore()
    }
    expect(await sb.json<unknown[]>(['tx', 'list', '--json'])).toHaveLength(2)
  })
})
