import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Nothing is made while a file is collected (a skipped block would leave it behind), and what a
    // file made goes when it ends, also after a test that timed out (test/helpers/leftovers.ts).
    setupFiles: ['test/helpers/collection-guard.ts', 'test/helpers/leftovers.ts'],
    // Passwords hashed at a test-only scrypt cost, in this process and the CLIs and servers it
    // starts (test/api/login.test.ts holds the real cost): src/domain/api-keys/secrets.ts.
    env: { FINCTL_TEST_PASSWORD_COST: 'low' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests start servers and spawn the CLI: keep the 2-core CI machine responsive.
    maxWorkers: 2,
    pool: 'forks',
  },
})
