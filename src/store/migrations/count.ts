/**
 * How many migrations there are: the length of MIGRATIONS in index.ts, which refuses to load when the
 * two differ. A store that is up to date (SQLite's user_version) opens with this number alone, without
 * loading the migrations themselves (docs/performance.md, "Start-up guards").
 */
export const MIGRATION_COUNT = 51
