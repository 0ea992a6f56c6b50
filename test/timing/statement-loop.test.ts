/**
 * The embedded core keeps its event loop free while a large statement is processed: the parse runs
 * on a worker thread, so the loop never waits as long as parsing on it would have held it. That the
 * statement is read exactly: test/api/statements.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { parseUpload } from '../../src/domain/statements/parse.js'
import { createHarness } from '../helpers/harness.js'

describe('the server keeps answering while a large statement is processed', () => {
  it('embedded: the event loop is never blocked for long (parsing runs on a worker thread)', async () => {
    const h = await createHarness('embedded')
    try {
      const t = await h.tenant()
      const c = h.client({ apiKey: t.key })
      const acct = (await c.accounts.create({ name: 'Big', account_type: 'checking', currency_code: 'USD' })).id
      // About 12 MiB of OFX whose lines carry long proprietary tags (read, not kept): parsing it on the
      // main thread would block it for a second or so, while the work left on the main thread is done
      // in slices (lines read back, rows written). The one write not sliced is SQLite's COMMIT of the
      // statement's single transaction, which grows with the rows written: they are few and short here.
      const parts = [
        'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>2<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>\n',
      ]
      let size = 0
      const filler = Array.from({ length: 40 }, (_, k) => `<INTU.X${k}>lorem ipsum dolor sit amet`).join('')
      for (let i = 0; size < 12 * 1024 * 1024; i++) {
        const p = `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>2020${String((i % 12) + 1).padStart(2, '0')}05<TRNAMT>-1.${String(i % 100).padStart(2, '0')}<FITID>F${i}<NAME>Shop ${i % 50}${filler}<MEMO>Card purchase number ${i}</STMTTRN>\n`
        parts.push(p)
        size += p.length
      }
      parts.push('</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n')
      const bytes = Buffer.from(parts.join(''))
      // What parsing on the main thread would cost here and now (the machine may be busy).
      const t0 = performance.now()
      const inline = await parseUpload(bytes, { fileName: 'big.ofx', format: 'ofx', currency: 'USD', exponent: 2 }, {})
      const blocking = performance.now() - t0
      expect(inline.parts[0].lines).toHaveLength(parts.length - 2)
      let worst = 0
      let last = performance.now()
      const timer = setInterval(() => {
        const now = performance.now()
        worst = Math.max(worst, now - last)
        last = now
      }, 10)
      const gaps = () => `longest wait ${Math.round(worst)} ms; parsing on the loop took ${Math.round(blocking)} ms`
      try {
        const s = await c.statements.upload({ bank_account_id: acct, file_name: 'big.ofx', content_base64: bytes.toString('base64') })
        last = performance.now()
        worst = 0
        const done = await c.statements.wait(s.id)
        expect(done.status).toBe('completed')
        expect(done.transaction_count).toBe(parts.length - 2)
      } finally {
        clearInterval(timer)
      }
      // The loop never waited as long as parsing on it would have blocked it.
      expect(worst, gaps()).toBeLessThan(blocking * 0.6)
    } finally {
      await h.close()
    }
  })
})
