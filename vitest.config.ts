import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Nothing is made while a file is collected (a skipped block would leave it behind).
    setupFiles: ['test/helpers/collection-guard.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests start servers and spawn the CLI: keep the 2-core CI machine responsive.
    maxWorkers: 2,
    pool: 'forks',
  },
})
