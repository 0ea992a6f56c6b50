/**
 * `finctl export check FILE` (docs/exporting.md, "Checking a file"): a DATEV, SIE 4 or SAF-T file,
 * finctl's or another program's, read against its format's rules as a stream (a file of a million
 * rows takes the memory of one line), each problem with its line. The format is told by the file's
 * first bytes, never by its name.
 */
import { open } from 'node:fs/promises'
import { AppError } from '../../kernel/errors.js'
import type { CheckReport } from './check-report.js'

export type { CheckReport, Problem } from './check-report.js'

export interface CheckOptions {
  /** SAF-T: the XSD to validate against (Skatteetaten's Norwegian_SAF-T_Financial_Schema_v_1.30.xsd). */
  xsd?: string
}

async function firstBytes(path: string): Promise<Buffer> {
  const fh = await open(path, 'r').catch((e: NodeJS.ErrnoException) => {
    throw new AppError(e.code === 'ENOENT' ? 'not_found' : 'usage', `${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`)
  })
  try {
    const b = Buffer.alloc(512)
    const { bytesRead } = await fh.read(b, 0, 512, 0)
    return b.subarray(0, bytesRead)
  } finally {
    await fh.close()
  }
}

export function detectFormat(head: Buffer): CheckReport['format'] | undefined {
  const text = head.toString('latin1').replace(/^\ufeff|^\u00ef\u00bb\u00bf/, '')
  if (/^"?(EXTF|DTVF)"?;/.test(text)) return 'datev'
  if (/^#FLAGGA\b/.test(text.trimStart())) return 'sie4'
  if (/<AuditFile[\s>]/.test(text) || (/^<\?xml/.test(text.trimStart()) && /AuditFile/.test(text))) return 'saft-no'
  return undefined
}

export async function checkFile(path: string, o: CheckOptions = {}): Promise<CheckReport> {
  const format = detectFormat(await firstBytes(path))
  if (format === 'datev') return (await import('./check-datev.js')).checkDatev(path)
  if (format === 'sie4') return (await import('./check-sie.js')).checkSie(path)
  if (format === 'saft-no') return (await import('./check-saft.js')).checkSaft(path, o.xsd)
  throw new AppError(
    'validation_error',
    `${path} is none of the formats export check reads: a DATEV Buchungsstapel starts with "EXTF";, a SIE file with #FLAGGA, a SAF-T file is XML with <AuditFile>`,
  )
}
