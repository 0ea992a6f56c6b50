/** What the verbs of `finctl alias` share: their host. */
import type { Context } from '../../src/cli/context.js'
import type { VerbHost } from '../../src/cli/runner.js'

/** The host of the `alias` verbs: the profile file keeps the aliases. */
export type AliasHost = VerbHost & Pick<Context, 'profiles'>
