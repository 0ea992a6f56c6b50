/**
 * The layers of ARCHITECTURE.md, checked: `npm run check:layers` (part of `npm run check`, which CI
 * runs) fails on an import circle or on a module importing from a floor above its own. Type-only
 * imports count too (tsPreCompilationDeps).
 */
/** From the bottom floor up: each module may import its own floor and those below. */
const FLOORS = [
  ['kernel', '^src/(kernel/|version\\.ts$|worker-entry\\.ts$)'],
  ['import and store', '^src/(import|store)/'],
  ['domain', '^src/domain/'],
  ['api and client', '^src/(api|client)/'],
  ['core', '^src/core\\.ts$'],
  ['embedded transport', '^src/embedded/'],
  ['jobs', '^src/jobs/'],
  ['cli and server', '^src/(cli/|server\\.ts$)'],
  ['commands', '^commands/'],
]

const upward = FLOORS.slice(0, -1).map(([name, path], i) => ({
  name: `no-upward-from-${name.replace(/\W+/g, '-')}`,
  comment: `${name} may import only its own floor and those below (ARCHITECTURE.md)`,
  severity: 'error',
  from: { path },
  to: { path: FLOORS.slice(i + 1).map(([, p]) => p) },
}))

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import circle: move what both sides need into a module below them (ARCHITECTURE.md)',
      severity: 'error',
      from: { path: '^(src|commands)/' },
      to: { circular: true },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    // TypeScript 7's compiler has no JavaScript API yet: dependency-cruiser reads the sources with swc.
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
}
