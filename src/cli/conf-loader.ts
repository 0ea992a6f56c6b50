/**
 * conf (the settings files: profiles, saved mappings), loaded when first needed rather than with
 * the program: loading it is a large share of a command's start, and most commands only read the
 * profiles, which profiles.ts does itself. In the bundle, conf is a CommonJS file of its own,
 * dist/conf.cjs (scripts/build.mjs, which defines __FINCTL_BUNDLED__); from the sources it is the
 * package itself.
 */
import { createRequire } from 'node:module'
import type Conf from 'conf'

declare const __FINCTL_BUNDLED__: boolean | undefined

const requireHere = createRequire(import.meta.url)

export function loadConf(): typeof Conf {
  const bundled = typeof __FINCTL_BUNDLED__ !== 'undefined' && __FINCTL_BUNDLED__
  // The bundle's chunks are in dist/chunks/, beside dist/conf.cjs.
  return (bundled ? requireHere('../conf.cjs') : requireHere('conf')).default
}
