import { configDefaults, defineConfig } from 'vitest/config'

/**
 * Files that need a process of their own: vi.mock replaces a module for the whole graph. Every other
 * file shares a worker's module graph (`isolate: false`), file after file, and puts back what it
 * changes (CONTRIBUTING.md "Tests", docs/decisions.md "One module graph for the tests").
 */
const OWN_PROCESS = ['test/commands/export-interrupt.test.ts']
/**
 * The tests that bound a time, a delay or a growth (test/timing/): `npm run test:timing`
 * (vitest.timing.config.ts), never `npm test`, whose tests must pass on a machine other work keeps busy.
 */
export const TIMING = 'test/timing/**'

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // Nothing is made while a file is collected (a skipped block would leave it behind), and what a
    // file made goes when it ends, also after a test that timed out (test/helpers/leftovers.ts).
    setupFiles: ['test/helpers/collection-guard.ts', 'test/helpers/leftovers.ts'],
    // Passwords hashed at a test-only scrypt cost, in this process and the CLIs and servers it
    // starts (test/api/login.test.ts holds the real cost): src/domain/api-keys/secrets.ts.
    env: { FINCTL_TEST_PASSWORD_COST: 'low' },
    // Bounds for a hang, not for speed: on a 2-core machine that two other processes keep busy a
    // test that spawns CLIs or starts servers takes three to four times its quiet time.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Integration tests start servers and spawn the CLI: keep the 2-core CI machine responsive.
    maxWorkers: 2,
    pool: 'forks',
    // Each inherits the above (the global setup runs once for the run); a file is in exactly one. The
    // root holds no include: a project's arrays are added to the root's.
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, TIMING, ...OWN_PROCESS],
          isolate: false,
          setupFiles: ['test/helpers/restored.ts'],
        },
      },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS } },
    ],
  },
})
