/**
 * `tx list --all` asks for pages of 2,000; a `finctl serve` from before (at most 1,000) refuses the
 * first page naming `limit`, and the walk starts again with pages of 1,000, printing nothing twice.
 */
import { describe, expect, it } from 'vitest'
import { pagesOfAnyServer } from '../../../commands/tx/list.js'
import { AppError } from '../../../src/kernel/errors.js'

/** A server's pages of 10 rows: refuses a limit over `max` as the service's validation does. */
function server(max: number, asked: number[]) {
  return async function* (q: { limit: number }) {
    asked.push(q.limit)
    if (q.limit > max) throw new AppError('validation_error', 'invalid query', { details: [{ path: 'limit', message: `at most ${max}` }] })
    for (let i = 0; i < 3; i++) yield Array.from({ length: 10 }, (_, j) => i * 10 + j)
  }
}

async function all<P>(it: AsyncIterable<P>): Promise<P[]> {
  const out: P[] = []
  for await (const p of it) out.push(p)
  return out
}

describe('tx list --all against servers old and new', () => {
  it('takes pages of 2,000 where the server allows them', async () => {
    const asked: number[] = []
    expect((await all(pagesOfAnyServer({ limit: 2000 }, undefined, server(5000, asked)))).flat()).toHaveLength(30)
    expect(asked).toEqual([2000])
  })

  it('starts again with pages of 1,000 when the first page is refused for its limit', async () => {
    const asked: number[] = []
    expect((await all(pagesOfAnyServer({ limit: 2000 }, undefined, server(1000, asked)))).flat()).toEqual(
      Array.from({ length: 30 }, (_, i) => i),
    )
    expect(asked).toEqual([2000, 1000])
  })

  it('keeps the refusal of a --limit the user gave', async () => {
    await expect(all(pagesOfAnyServer({ limit: 2000 }, 2000, server(1000, [])))).rejects.toThrow(/invalid query/)
  })
})
