import {
  pdfInfo,
  pdfText,
  pdfXmp,
  qpdfCheck,
  qpdfReport,
  startTestKernel,
  type TestKernel,
  type TestWorkspace,
} from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// Issue 17 end to end over HTTP with the real plugins: Chromium prints, the PDF/A and PDF/UA
// steps of pdf-tools post-process, the installed validators report in result.conformance, and
// what a user sees is read back with poppler and qpdf. The document has what real ones have: CJK,
// emoji, SVG, transparency, a form, links, a table and an image. One kernel, one browser, SQLite.

let t: TestKernel
let ws: TestWorkspace

beforeAll(async () => {
  t = await startTestKernel({ roles: ['api', 'worker'] })
  ws = await t.createWorkspace({ plan: 'scale' })
  await t.setPlanLimits('scale', { requests_per_second: 1000 })
}, 60_000)

afterAll(async () => {
  await t?.close()
})

const render = (html: string, pdf: object) =>
  t.inject({
    method: 'POST',
    url: '/v1/renders',
    key: ws.liveKey,
    payload: { input: { type: 'html', html }, output: { format: 'pdf', pdf } },
  })

const fileOf = async (body: { files: { url: string }[] }): Promise<Buffer> => {
  const { pathname, search } = new URL(body.files[0]!.url)
  return (await t.inject({ method: 'GET', url: pathname + search })).rawPayload
}

const DOCUMENT = `<!doctype html><html lang="en"><head><title>Quarterly report</title></head><body>
<h1>Quarterly report</h1><p>Revenue grew in <a href="https://example.com/north">the north</a>.</p>
<p style="opacity: .6">漢字 and 한국어 and emoji 🎉</p>
<table><tr><th>Region</th><th>Revenue</th></tr><tr><td>North</td><td>12</td></tr></table>
<svg width="40" height="40" role="img" aria-label="A red dot"><circle cx="20" cy="20" r="15" fill="red"/></svg>
<img alt="A green square" width="20" height="20" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==">
<form><label>Name <input name="name" value="Ada"></label> <label><input type="checkbox" checked> Paid</label></form>
</body></html>`

describe('PDF/A with the real steps', () => {
  it.each(['2b', '3b'] as const)(
    'makes PDF/A-%s: claim in the XMP, sRGB output intent, clean report',
    async (level) => {
      const res = await render(DOCUMENT, { pdfa: level })
      expect(res.statusCode, res.body.slice(0, 400)).toBe(200)
      const body = res.json()
      const bytes = await fileOf(body)
      expect(qpdfCheck(bytes).ok).toBe(true)
      const xmp = pdfXmp(bytes)
      expect(xmp).toMatch(new RegExp(`pdfaid:part(>|=")${level[0]}`))
      expect(xmp).toMatch(/pdfaid:conformance(>|=")B/)
      // the catalog's output intent, as qpdf reads it (the raw file keeps it in an object stream)
      expect(qpdfReport(bytes, ['--json'])).toContain('"/S": "/GTS_PDFA1"')
      expect(pdfText(bytes)).toContain('Quarterly report')
      // the built-in validator's verdict on every rule it covers
      expect(body.result.conformance.pdfa).toMatchObject({
        valid: true,
        profile: `pdfa-${level}`,
        source: 'docsvc',
        errors: [],
      })
    },
  )
})

describe('PDF/UA with the real steps', () => {
  it('makes PDF/UA-1: pdfuaid claim, title shown, language set', async () => {
    const res = await render(DOCUMENT, { pdfua: true })
    expect(res.statusCode, res.body.slice(0, 400)).toBe(200)
    const body = res.json()
    expect(body.result.conformance.pdfua).toMatchObject({ valid: true, profile: 'pdfua-1', errors: [] })
    const bytes = await fileOf(body)
    expect(pdfXmp(bytes)).toMatch(/pdfuaid:part(>|=")1/)
    expect(pdfInfo(bytes).Title).toBe('Quarterly report')
    expect(qpdfReport(bytes, ['--json'])).toContain('"/DisplayDocTitle": true')
  })

  it('fails an untitled PDF/UA document with 422 pdfua_validation_failed naming the title rule, not billed', async () => {
    const res = await render('<!doctype html><html lang="en"><body><p>No title here</p></body></html>', {
      pdfua: true,
    })
    expect(res.statusCode, res.body.slice(0, 400)).toBe(422)
    const body = res.json()
    expect(body.code).toBe('pdfua_validation_failed')
    expect(body.result.conformance.pdfua.valid).toBe(false)
    expect(body.result.conformance.pdfua.errors.map((f: { rule_id: string }) => f.rule_id)).toContain('7.1-9')
  })
})
