import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Nothing is made while a file is collected (a skipped block would leave it behind), and what a
    // file made goes when it ends, also after a test that timed out (test/helpers/leftovers.ts).
    setupFiles: ['test/helpers/collection-guard.ts', 'test/helpers/leftovers.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests start servers and spawn the CLI: keep the 2-core CI machine responsive.
    maxWorkers: 2,
    pool: 'forks',
  },
})
