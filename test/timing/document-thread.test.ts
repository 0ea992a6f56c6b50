/**
 * A running `finctl serve` (the built CLI) keeps answering /healthz while it reads a large PDF
 * added as a document (src/domain/documents/pdf-thread.ts): the read runs on the PDF thread, so
 * the thread that answers requests is never held for the read. On that thread, PDF.js held it for
 * the whole read. The read itself, its limits and its thread: test/domain/pdf-thread.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/client.js'
import { openRemote } from '../../src/client/remote.js'
import { textPdf } from '../helpers/document-files.js'
import { busyThread, longestHealthz } from '../helpers/healthz.js'
import { createHarness, startServeProcess, stopProcess, type Harness, type Tenant } from '../helpers/harness.js'

describe('finctl serve reading a large PDF', () => {
  let h: Harness
  let t: Tenant
  let url: string
  let child: Awaited<ReturnType<typeof startServeProcess>>['child']
  beforeAll(async () => {
    h = await createHarness('embedded')
    t = await h.tenant()
    ;({ url, child } = await startServeProcess(h.database))
  })
  afterAll(async () => {
    if (child) await stopProcess(child)
    await h?.close()
  })

  let attempt = 0
  // As test/api/statement-limits.test.ts: set against the longest wait of a stretch as long beside a busy thread, two more attempts allowed.
  it('keeps /healthz answering within 100 ms of its usual time while it reads the PDF', { retry: 2, timeout: 120_000 }, async () => {
    const remote = openRemote()
    const serve = new Client({ baseUrl: url, fetch: remote.fetch, apiKey: t.key, maxRetries: 0 })
    // A page of many lines of text (another each attempt: a document is stored once per content).
    const lines = Array.from({ length: 150_000 }, (_, i) => `Line ${i} Item 12.50`)
    const pdf = textPdf([`Shop ${++attempt}`, ...lines, 'TOTAL EUR 24.90'], undefined, { deflate: true })
    const started = performance.now()
    const add = serve.documents.add({ file_name: 'large.pdf', content_base64: pdf.toString('base64'), auto_link: false })
    const during = await longestHealthz(url, add).finally(() => remote.close())
    // The fields were read: the PDF's text, not only its name.
    expect((await add).fields).toMatchObject({ merchant: `Shop ${attempt}`, source: 'pdf_text' })
    const usual = await longestHealthz(url, busyThread(performance.now() - started))
    expect(during, `longest /healthz ${Math.round(during)} ms while reading, ${Math.round(usual)} ms beside a busy thread`).toBeLessThan(
      usual + 100,
    )
  })
})
