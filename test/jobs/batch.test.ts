/** The import's batch stage (src/jobs/import/batch.ts): batches of the size asked, the last one marked. */
import { describe, expect, it } from 'vitest'
import { batches, batchSize } from '../../src/jobs/import/batch.js'

async function* chunks<T>(...list: T[][]): AsyncGenerator<T[]> {
  yield* list
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of it) out.push(x)
  return out
}

describe('batches', () => {
  it('fills each batch across chunks and marks only the last, a part batch', async () => {
    expect(await all(batches(chunks([1, 2, 3], [4, 5]), 2))).toEqual([
      { rows: [1, 2], last: false },
      { rows: [3, 4], last: false },
      { rows: [5], last: true },
    ])
  })

  it('marks the last full batch when the rows end on a whole number of batches', async () => {
    expect(await all(batches(chunks([1, 2, 3], [4]), 2))).toEqual([
      { rows: [1, 2], last: false },
      { rows: [3, 4], last: true },
    ])
  })

  it('a single batch is the last; no rows, no batch', async () => {
    expect(await all(batches(chunks([1, 2]), 5))).toEqual([{ rows: [1, 2], last: true }])
    expect(await all(batches(chunks<number>(), 5))).toEqual([])
  })

  it('holds the newest full batch until the rows say whether another follows', async () => {
    const seen: string[] = []
    async function* source(): AsyncGenerator<number[]> {
      seen.push('chunk 1')
      yield [1, 2]
      seen.push('chunk 2')
      yield [3]
    }
    for await (const b of batches(source(), 2)) seen.push(`batch ${b.rows.join(',')}${b.last ? ' last' : ''}`)
    expect(seen).toEqual(['chunk 1', 'chunk 2', 'batch 1,2', 'batch 3 last'])
  })
})

describe('batch size', () => {
  it('1000 unless given, within 1 and 5000', () => {
    expect([batchSize(undefined), batchSize(0), batchSize(250), batchSize(9000)]).toEqual([1000, 1, 250, 5000])
  })
})
