/** What the verbs of `finctl keys` share: where a new key goes (create, roll) and a key's id from a prefix (roll, revoke). */
import type { Context } from '../../src/cli/context.js'
import { storageWords } from '../../src/cli/credentials.js'
import { note, printRecord, warn } from '../../src/cli/output.js'
import { validProfileName } from '../../src/cli/profiles.js'
import type { PromptHost } from '../../src/cli/prompts.js'
import type { VerbHost } from '../../src/cli/runner.js'
import { resolveListedId } from '../../src/cli/short-ids.js'
import type { Client } from '../../src/client/client.js'
import type { CreatedApiKey } from '../../src/domain/api-keys/schemas.js'
import type { ProposedKey } from '../../src/domain/approvals/schemas.js'
import { AppError } from '../../src/kernel/errors.js'
import { OutputFile } from '../../src/jobs/output-file.js'

/** The host of a verb that hands out a new key: it may save it in a profile of this target. */
export type KeyHost = VerbHost & PromptHost & Pick<Context, 'profiles' | 'secrets' | 'target' | 'profile'>

export interface KeyDestination {
  saveProfile?: string
  outputFile?: string
  overwrite?: boolean
}

/** Check --save-profile and claim --output-file before the key exists: a key whose only copy could not be written is lost. */
export function claimKeyDestination(host: KeyHost, o: KeyDestination): OutputFile | undefined {
  if (o.saveProfile && o.outputFile) throw new AppError('usage', 'give --save-profile or --output-file, not both')
  if (o.saveProfile !== undefined && !validProfileName(o.saveProfile)) {
    throw new AppError('usage', `--save-profile: "${o.saveProfile}" is not a valid profile name (letters, digits, . _ -)`)
  }
  if (o.saveProfile !== undefined) {
    // A key belongs to this target: never attach it to a profile that points elsewhere.
    const existing = host.profiles().get(o.saveProfile)
    const t = host.target()
    const here = t.kind === 'remote' ? t.baseUrl : 'embedded'
    if (existing && existing.target !== here) {
      throw new AppError(
        'usage',
        `--save-profile: profile "${o.saveProfile}" points at ${existing.target}, not at this target: choose another name`,
      )
    }
  }
  return o.outputFile === undefined
    ? undefined
    : OutputFile.create(o.outputFile, { flag: '--output-file', secret: true, overwrite: o.overwrite })
}

/**
 * Put a new key where the user asked: a profile, a 0600 file, or stdout (shown this once). `shape`
 * wraps the key's record into what --json prints, the same shape wherever the secret went.
 */
export async function deliverKey(
  host: KeyHost,
  o: KeyDestination,
  file: OutputFile | undefined,
  created: CreatedApiKey | ProposedKey,
  shape: (key: object) => object = (key) => key,
): Promise<void> {
  const { key, ...record } = created
  const { io, printer } = host
  // What a table or --json shows when the secret went to a profile or a file.
  const saved = printer.format === 'table' ? record : shape(record)
  if (o.saveProfile) {
    const t = host.target()
    // A profile whose secrets were put in the file (--insecure-storage) keeps them there.
    const old = host.profiles().get(o.saveProfile)
    const where = host.secrets().save(
      o.saveProfile,
      {
        target: t.kind === 'remote' ? t.baseUrl : 'embedded',
        ...(t.kind === 'embedded' ? { database: io.env.FINCTL_DATABASE ?? host.profile()?.database } : {}),
        api_key: key,
      },
      { insecure: Boolean(old && (old.api_key || old.access_token) && !old.keyring) },
    )
    await printRecord(io, printer, saved)
    note(io, printer, `The new key is saved in profile "${o.saveProfile}", ${storageWords(where)}; use it with --profile ${o.saveProfile}`)
    return
  }
  if (file) {
    file.write(`${key}\n`)
    file.commit()
    await printRecord(io, printer, saved)
    note(io, printer, `The new key is in ${o.outputFile} (mode 0600)`)
    return
  }
  if (printer.format === 'table') {
    await printRecord(io, printer, record)
    io.stdout.write(`${key}\n`)
  } else await printRecord(io, printer, shape(created))
  warn(io, 'this is the only time the full key is shown: store it now (it is kept only as a hash)', printer.color)
}

/** The full id of the key ID names: whole, or a unique prefix or suffix of 6+ hex digits (short-ids.ts). */
export function keyId(client: Client, id: string, flag = 'ID'): Promise<string> {
  return resolveListedId(
    'key',
    id,
    () => client.keys.list('all'),
    (k) => `${k.id}  ${k.name}  ${k.key_prefix}…`,
    flag,
  )
}
