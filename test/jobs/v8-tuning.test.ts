import { describe, expect, it } from 'vitest'
import { defaultConcurrency } from '../../src/jobs/import/send.js'
import { heapGrowingFlag, importThreadLimits, importYoungGenerationMb } from '../../src/jobs/import/v8-tuning.js'

describe('tx import heap growth', () => {
  it('lets each heap grow by half what it kept alive, unless node was given a factor', () => {
    expect(heapGrowingFlag([], '')).toBe('--heap-growing-percent=50')
    expect(heapGrowingFlag(['--enable-source-maps'], '--max-old-space-size=512')).toBe('--heap-growing-percent=50')
    expect(heapGrowingFlag(['--heap-growing-percent=30'], '')).toBeUndefined()
    expect(heapGrowingFlag([], '--heap_growing_percent=300')).toBeUndefined()
  })
})

describe('tx import batches in flight without --concurrency', () => {
  it('two on the embedded target, four on a remote one', () => {
    expect(defaultConcurrency({ kind: 'embedded', database: '/tmp/x.db' })).toBe(2)
    expect(defaultConcurrency({ kind: 'remote', baseUrl: 'http://127.0.0.1:1' })).toBe(4)
  })
})

describe("the import thread's young generation", () => {
  it('8 MB beside the embedded core (the process holds both), 32 MB towards a remote target', () => {
    expect(importYoungGenerationMb({ kind: 'embedded', database: '/tmp/x.db' })).toBe(8)
    expect(importYoungGenerationMb({ kind: 'remote', baseUrl: 'http://127.0.0.1:1' })).toBe(32)
  })

  it('and an old generation bounded at 256 MB on either target', () => {
    expect(importThreadLimits({ kind: 'embedded', database: '/tmp/x.db' })).toEqual({
      maxYoungGenerationSizeMb: 8,
      maxOldGenerationSizeMb: 256,
    })
    expect(importThreadLimits({ kind: 'remote', baseUrl: 'http://127.0.0.1:1' })).toEqual({
      maxYoungGenerationSizeMb: 32,
      maxOldGenerationSizeMb: 256,
    })
  })
})
