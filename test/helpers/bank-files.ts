/**
 * The bank-file corpus: real bank exports (CSV, OFX, QIF, CAMT.053, MT940 and their SOURCES.md),
 * kept outside the project and never copied into it. One setting says where it is:
 *
 *   FINCTL_TEST_BANK_FILES  the folder (relative paths are taken from the project root);
 *                           by default ../shared/fixtures/bank-files beside the project.
 *
 * Every test that reads the corpus takes its paths from here. When the folder is missing, those
 * tests are skipped (`describe.skipIf(!HAS_BANK_FILES)` / `it.skipIf(!HAS_BANK_FILES)`) and
 * test/global-setup.ts prints one line for the run; under CI=true the run fails instead.
 * Nothing here throws when the folder is missing: files list the corpus while they load.
 */
import { readdirSync, statSync } from 'node:fs'
import { resolve } from 'node:path'

export const BANK_FILES_VAR = 'FINCTL_TEST_BANK_FILES'

const ROOT = resolve(import.meta.dirname, '../..')

/** Where the corpus is when FINCTL_TEST_BANK_FILES is not set. */
export const DEFAULT_BANK_FILES = resolve(ROOT, '../shared/fixtures/bank-files')

/** The corpus folder of this run (absolute). */
export const BANK_FILES = process.env[BANK_FILES_VAR] ? resolve(ROOT, process.env[BANK_FILES_VAR]) : DEFAULT_BANK_FILES

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** Whether the corpus is there; the tests that read it are skipped when it is not. */
export const HAS_BANK_FILES = isFolder(BANK_FILES)

/** A path inside the corpus, such as bankFile('csv', 'x.csv') or bankFile('mt940/y.sta'). */
export function bankFile(...parts: string[]): string {
  return resolve(BANK_FILES, ...parts)
}

/** The names in one folder of the corpus, or none when the corpus is missing (safe at load time). */
export function listBankFiles(folder: string): string[] {
  return HAS_BANK_FILES ? readdirSync(bankFile(folder)) : []
}

/** What to set, for the messages. */
const HOW = `set ${BANK_FILES_VAR} to the folder of the bank-file corpus`

/** The one line a run prints when the corpus is missing. */
export const SKIP_NOTE = `bank-file tests skipped: ${BANK_FILES} is missing (${HOW})`

/** The error of a run under CI=true when the corpus is missing. */
export const CI_ERROR = `the bank-file corpus ${BANK_FILES} is missing, and under CI=true its tests must run: ${HOW}`
