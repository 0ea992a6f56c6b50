import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests start servers and spawn the CLI: keep the 2-core CI machine responsive.
    maxWorkers: 2,
    pool: 'forks',
  },
})
