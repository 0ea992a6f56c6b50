/**
 * The folder of the run's temporary folder where a worker's shared harness (test/helpers/harness.ts)
 * names its `finctl serve` process by its pid: the run's teardown (test/global-setup.ts) ends them,
 * as they outlive the worker that started them.
 */
export const SHARED_SERVE_PIDS = 'shared-serve-pids'
