/**
 * The statement parsers behind one interface, format detection and one entry point.
 * Detection reads the content first; the file name only breaks ties or decides when the
 * content says nothing, as Actual Budget's importers do.
 */
import { formatNames, STATEMENT_FORMAT, STATEMENT_FORMATS } from '../../kernel/statement-formats.js'
import { camt053Parser, camt054Parser, looksLikeCamt053, looksLikeCamt054 } from './camt.js'
import { hasExtension, head } from './common.js'
import { looksLikeMt940, mt940Parser } from './mt940.js'
import { looksLikeOfx, ofxParser, qfxParser } from './ofx.js'
import { looksLikeQif, qifParser } from './qif.js'
import { type ParseOptions, type ParseResult, type StatementFormat, type StatementParser, StatementParseError } from './types.js'

export * from './types.js'

/** Every statement parser (CSV is imported through its column mapping, not here). */
export const PARSERS: readonly StatementParser[] = [ofxParser, qfxParser, qifParser, camt053Parser, camt054Parser, mt940Parser]

function byExtension(fileName: string): StatementFormat | undefined {
  return STATEMENT_FORMATS.find((f) => hasExtension(fileName, STATEMENT_FORMAT[f].extensions))
}

/** The format of a file from its content (OFX, CAMT.053, QIF, MT940), else from its extension. */
export function detectFormat(bytes: Uint8Array, fileName: string): StatementFormat | undefined {
  const text = head(bytes)
  const ext = byExtension(fileName)
  const found: StatementFormat[] = []
  if (looksLikeOfx(text)) found.push(ext === 'qfx' ? 'qfx' : 'ofx')
  if (looksLikeCamt053(text)) found.push('camt053')
  if (looksLikeCamt054(text)) found.push('camt054')
  if (looksLikeQif(text)) found.push('qif')
  if (looksLikeMt940(text)) found.push('mt940')
  if (found.length === 1) return found[0]
  if (found.length > 1) return ext && found.includes(ext) ? ext : found[0]
  return ext
}

export interface ParseStatementOptions extends ParseOptions {
  /** The format, when the user names it; otherwise detected. */
  format?: StatementFormat
  /** The uploaded file's name, for detection (its extension is a tie-breaker). */
  fileName?: string
}

/** Parse a statement file of any supported format. Throws StatementParseError when unusable. */
export function parseStatement(bytes: Uint8Array, opts: ParseStatementOptions = {}): ParseResult {
  const { format: given, fileName = '', ...options } = opts
  const format = given ?? detectFormat(bytes, fileName)
  if (!format) {
    throw new StatementParseError(
      `cannot tell the format of ${fileName ? `"${fileName}"` : 'the file'}: it is not ${formatNames('parsed')}; name it with --format`,
    )
  }
  if (format === 'csv') {
    throw new StatementParseError('CSV statements go through the CSV mapping: use `finctl tx import FILE.csv --account ID`')
  }
  const parser = PARSERS.find((p) => p.format === format)
  if (!parser) throw new StatementParseError(`unknown statement format "${format}"`)
  return parser.parse(bytes, options)
}
