/**
 * Section `documents`: reading a PDF's text is fair between companies (src/domain/documents/pdf-thread.ts).
 * Company A's small receipt is read while company B's flate bomb (a PDF of some tens of KB whose one
 * page inflates to `bombMb` MB of text operators) is being read, against the same receipt read
 * alone, in paired rounds on warm threads: the ratio is what B's file costs A. B's read is timed too.
 * Before the pool, A waited for the whole of B's read.
 */
import { deflateSync } from 'node:zlib'
import { readPdfOffThread, PDF_LIMITS } from '../../src/domain/documents/pdf-thread.js'
import { makeFigure, type Figure } from './report.js'
import { summarize } from './stats.js'

export interface DocumentsConfig {
  /** The bomb's text, inflated. */
  bombMb: number
  rounds: number
}

/** A one-page PDF whose page content is `text`, deflated. */
function pdfOf(text: string): Buffer {
  const content = deflateSync(Buffer.from(text, 'latin1'), { level: 9 })
  const objects: Array<string | Buffer> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    Buffer.concat([Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`), content, Buffer.from('\nendstream')]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ]
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')]
  let length = parts[0].length
  const offsets: number[] = []
  objects.forEach((o, i) => {
    offsets.push(length)
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), typeof o === 'string' ? Buffer.from(o) : o, Buffer.from('\nendobj\n')])
    parts.push(b)
    length += b.length
  })
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`))
  return Buffer.concat(parts)
}

const receipt = (round: number) =>
  pdfOf(`BT /F1 12 Tf\n72 720 Td (Corner Shop ${round}) Tj\n0 -16 Td (Receipt 2026-10-05) Tj\n0 -16 Td (TOTAL EUR 24.90) Tj\nET`)
const bomb = (mb: number) => pdfOf(`BT /F1 12 Tf\n72 720 Td\n${'(Bomb) Tj\n'.repeat(Math.floor((mb * 1024 * 1024) / 10))}ET`)

export async function runDocumentsSection(c: DocumentsConfig, log: (line: string) => void) {
  const big = bomb(c.bombMb)
  const alone: number[] = []
  const beside: number[] = []
  const bombs: number[] = []
  // Warm both threads (PDF.js loaded on each) before the first round.
  await Promise.all([
    readPdfOffThread(receipt(-1), 'EUR', PDF_LIMITS, 'warm-a'),
    readPdfOffThread(receipt(-2), 'EUR', PDF_LIMITS, 'warm-b'),
  ])
  for (let round = 0; round < c.rounds; round++) {
    let t = performance.now()
    await readPdfOffThread(receipt(round), 'EUR', PDF_LIMITS, 'company-a')
    alone.push(performance.now() - t)
    const b0 = performance.now()
    const b = readPdfOffThread(big, 'EUR', PDF_LIMITS, 'company-b')
    await new Promise((r) => setTimeout(r, 20))
    t = performance.now()
    const a = await readPdfOffThread(receipt(round), 'EUR', PDF_LIMITS, 'company-a')
    beside.push(performance.now() - t)
    if (!a.fields) throw new Error('documents: the receipt was not read')
    await b
    bombs.push(performance.now() - b0)
    log(
      `  round ${round + 1}: A alone ${alone[round].toFixed(0)} ms, beside B's bomb ${beside[round].toFixed(0)} ms; B's bomb ${bombs[round].toFixed(0)} ms`,
    )
  }
  const figures: Figure[] = [
    makeFigure({
      id: 'documents.beside-bomb',
      label: `A's receipt read while B's ${c.bombMb} MB flate bomb is read`,
      unit: 'ms',
      spread: 'min-max',
      value: beside,
      baselineLabel: "A's receipt read alone",
      baseline: alone,
      notes: [
        `B's bomb took ${summarize(bombs).median.toFixed(0)} ms (median); A's longest wait beside it ${Math.max(...beside).toFixed(0)} ms`,
      ],
    }),
  ]
  return {
    figures,
    lines: [
      `documents: A's receipt beside B's bomb ${summarize(beside).median.toFixed(0)} ms, alone ${summarize(alone).median.toFixed(0)} ms`,
    ],
    extra: { alone, beside, bombs },
  }
}
