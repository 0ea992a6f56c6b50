/**
 * Text from outside as a terminal may show it: the escaping lives in the kernel (src/kernel/terminal-text.ts)
 * so that the core's own lines (an internal error's line on the embedded CLI) go through the same one.
 */
export * from '../kernel/terminal-text.js'
