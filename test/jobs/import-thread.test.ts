import { describe, expect, it } from 'vitest'
import { defaultConcurrency, heapGrowingFlag, importYoungGenerationMb } from '../../src/jobs/import/import-thread.js'

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
})
