import { pdfInfo, pdfPageTexts, pdfText } from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registeredValues } from '../../core/src/kernel/plugins/extension-points.ts'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'

// Templates end to end with real Chromium: a published pdf_code template with a header and footer,
// a pdf_markdown template and a tagged PDF preview, read back with poppler. One kernel, one
// browser; SQLite (the database side is covered by the template API suites on both dialects).

let t: TestKernel
let ws: TestWorkspace

beforeAll(async () => {
  t = await startTestKernel({ roles: ['api', 'worker'] })
  ws = await t.createWorkspace({ plan: 'scale' })
}, 60_000)

afterAll(async () => {
  await t?.close()
})

const call = (url: string, payload?: object, key = ws.liveKey) =>
  t.inject({ method: 'POST', url: `/v1${url}`, key, ...(payload ? { payload } : {}) })

async function publish(body: object): Promise<string> {
  const created = await call('/templates', body)
  expect(created.statusCode).toBe(201)
  const id = created.json().id
  const published = await call(`/templates/${id}/publish`)
  expect(published.statusCode).toBe(201)
  return id
}

describe('template PDFs with Chromium', () => {
  it('renders a pdf_code invoice with data, partials, header and footer on every page', async () => {
    const id = await publish({
      type: 'pdf_code',
      name: 'Invoice',
      html: [
        '<h1>Invoice {{ number }}</h1>',
        '{% for item in items %}{% render "row", item: item %}{% endfor %}',
        '<p style="break-before: page">Total due: {{ total }} EUR</p>',
      ].join('\n'),
      partials: { row: '<p>{{ item.name }} x {{ item.qty }}</p>' },
      css: 'h1 { font-size: 30px }',
      header_html: '<div style="font-size:10px">Acme Ltd for {{ customer }}</div>',
      footer_html: '<div style="font-size:10px">Page <span class="pageNumber"></span></div>',
      pdf: { format: 'A4', margin: { top: '25mm', bottom: '25mm' } },
      data_schema: { type: 'object', required: ['number', 'items'] },
      sample_data: { number: 'S-1', items: [], total: 0, customer: 'Sample' },
    })
    const res = await call('/pdf/from-template', {
      template_id: id,
      data: {
        number: '2026-0042',
        customer: 'Ada Lovelace',
        items: [
          { name: 'Analytical engine', qty: 1 },
          { name: 'Punch cards', qty: 500 },
        ],
        total: 1234.5,
      },
      filename: 'invoice-{{ number }}',
      delivery: 'binary',
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/pdf')
    expect(res.headers['content-disposition']).toContain('invoice-2026-0042.pdf')
    const pdf = res.rawPayload
    expect(pdfInfo(pdf).Pages).toBe('2')
    const [first, second] = pdfPageTexts(pdf)
    expect(first).toContain('Invoice 2026-0042')
    expect(first).toContain('Analytical engine x 1')
    expect(first).toContain('Punch cards x 500')
    expect(first).toContain('Acme Ltd for Ada Lovelace')
    expect(first).toContain('Page 1')
    expect(second).toContain('Total due: 1234.5 EUR')
    expect(second).toContain('Page 2')
  }, 60_000)

  it('renders a pdf_markdown template with its theme and Liquid', async () => {
    const id = await publish({
      type: 'pdf_markdown',
      name: 'Letter',
      markdown: '# Dear {{ name }}\n\n{% for p in points %}- {{ p }}\n{% endfor %}',
      theme: 'github',
      sample_data: { name: 'x', points: [] },
    })
    const res = await call('/renders', {
      input: { type: 'template', template_id: id },
      data: { name: 'Grace', points: ['compilers', 'COBOL'] },
      delivery: 'binary',
    })
    expect(res.statusCode).toBe(200)
    const text = pdfText(res.rawPayload)
    expect(text).toContain('Dear Grace')
    expect(text).toContain('compilers')
    expect(text).toContain('COBOL')
    expect(text).not.toContain('{%')
  }, 60_000)

  it('makes a tagged, watermarked PDF preview with its PDF/UA-1 report, never failing on it', async () => {
    const res = await call('/previews/pdf', {
      template_type: 'pdf_code',
      content: { html: '<h1>{{ title }}</h1><p>Accessible body</p>' },
      data: { title: 'Preview title' },
      output: { pdf: { tagged: true } },
    })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({ status: 'succeeded', test: true })
    // the report is the installed validator's; without one the preview says so (decision 0109)
    const validating = registeredValues(t.kernel.plugins.registries.conformanceValidators).some((v) =>
      v.profiles.includes('pdfua-1'),
    )
    if (validating) {
      expect(body.result.conformance.pdfua).toMatchObject({ profile: 'pdfua-1', source: expect.any(String) })
    } else {
      expect(body.warnings).toContainEqual(
        expect.objectContaining({ code: 'accessibility_validation_unavailable' }),
      )
    }
    const { pathname, search } = new URL(body.files[0].url)
    const pdf = (await t.inject({ method: 'GET', url: pathname + search })).rawPayload
    expect(pdfInfo(pdf).Tagged).toBe('yes')
    const text = pdfText(pdf)
    expect(text).toContain('Preview title')
    expect(text).toContain('TEST')
  }, 60_000)
})
