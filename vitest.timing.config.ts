import { defineConfig, mergeConfig } from 'vitest/config'
import base, { TIMING } from './vitest.config.js'

/**
 * `npm run test:timing`: the tests of test/timing/, each bounding a time, a delay or a growth (how
 * soon a long poll answers, how long the event loop waits while a file is parsed, 4x the input at
 * most 8x the processor time), apart from `npm test`. One file at a time, each in a process of its
 * own: a bound then measures its file, not its neighbour, and no heap another file filled.
 */
export default mergeConfig(
  { ...base, test: { ...base.test, projects: undefined } },
  defineConfig({ test: { name: 'timing', include: [TIMING.replace('**', '*.test.ts')], maxWorkers: 1, isolate: true } }),
)
