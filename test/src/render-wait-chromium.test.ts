import { pdfText } from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'

// Issue 15 item 5 over HTTP with real Chromium: `wait` on HTML and Markdown inputs on every route
// that takes them (decision 0070), and the font warnings a user finds in the render record
// (decision 0071). One kernel, one browser, SQLite.

let t: TestKernel
let ws: TestWorkspace

beforeAll(async () => {
  t = await startTestKernel({ roles: ['api', 'worker'] })
  ws = await t.createWorkspace({ plan: 'scale' })
  await t.setPlanLimits('scale', { requests_per_second: 10_000 })
}, 60_000)

afterAll(async () => {
  await t?.close()
})

const post = (url: string, body: object, delivery = 'binary') =>
  t.inject({ method: 'POST', url, key: ws.liveKey, payload: { delivery, ...body } })

/** A chart its script draws `ms` after load: a tall block (for images) with text (for PDFs). */
const chart = (ms: number) =>
  `<h1>Sales</h1><div id="chart">Loading chart</div><script>
    addEventListener('load', () => setTimeout(() => {
      const drawn = document.createElement('div')
      drawn.id = 'drawn'
      drawn.style.height = '1500px'
      drawn.textContent = 'Chart drawn by script'
      document.getElementById('chart').replaceWith(drawn)
      window.chartReady = true
    }, ${ms}))</script>`

async function printed(url: string, body: object): Promise<string> {
  const res = await post(url, body)
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
  return pdfText(res.rawPayload)
}

/** Height of a PNG from its header. */
async function pngHeight(url: string, body: object): Promise<number> {
  const res = await post(url, { ...body, image: { full_page: true } })
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
  return res.rawPayload.readUInt32BE(20)
}

describe('wait on HTML and Markdown inputs', () => {
  it('prints what a script drew on /v1/pdf/from-html with a wait, and not without', async () => {
    expect(await printed('/v1/pdf/from-html', { html: chart(500), wait: { selector: '#drawn' } })).toContain(
      'Chart drawn by script',
    )
    // drawn 3 s after load: printing right after load never sees it
    const early = await printed('/v1/pdf/from-html', { html: chart(3_000) })
    expect(early).toContain('Loading chart')
    expect(early).not.toContain('Chart drawn by script')
  }, 60_000)

  it('takes input.wait on /v1/renders for html and markdown', async () => {
    const html = await printed('/v1/renders', {
      input: { type: 'html', html: chart(500), wait: { expression: 'window.chartReady === true' } },
      output: { format: 'pdf' },
    })
    expect(html).toContain('Chart drawn by script')
    const markdown = await printed('/v1/renders', {
      input: { type: 'markdown', markdown: chart(500), allow_raw_html: true, wait: { selector: '#drawn' } },
      output: { format: 'pdf' },
    })
    expect(markdown).toContain('Chart drawn by script')
  }, 60_000)

  it('takes wait on /v1/pdf/from-markdown', async () => {
    const text = await printed('/v1/pdf/from-markdown', {
      markdown: `# Report\n\n${chart(500)}`,
      allow_raw_html: true,
      wait: { expression: 'window.chartReady' },
    })
    expect(text).toContain('Chart drawn by script')
  }, 60_000)

  it('captures what a script drew on /v1/images/from-html and /v1/images/from-markdown', async () => {
    expect(
      await pngHeight('/v1/images/from-html', { html: chart(500), wait: { selector: '#drawn' } }),
    ).toBeGreaterThan(1500)
    expect(
      await pngHeight('/v1/images/from-markdown', {
        markdown: chart(500),
        allow_raw_html: true,
        wait: { expression: 'window.chartReady' },
      }),
    ).toBeGreaterThan(1500)
    // the same page without a wait is captured before the chart exists
    expect(await pngHeight('/v1/images/from-html', { html: chart(3_000) })).toBeLessThan(1500)
  }, 60_000)

  it('answers 422 wait_timeout when the condition never comes, naming it', async () => {
    const res = await post('/v1/pdf/from-html', {
      html: chart(100),
      wait: { expression: 'window.chartReady === "never"', timeout_ms: 1_000 },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({
      code: 'wait_timeout',
      detail: 'wait.expression "window.chartReady === \\"never\\"" was not true within 1000 ms',
    })
    const image = await post('/v1/images/from-markdown', {
      markdown: 'No chart here',
      wait: { selector: '#drawn', timeout_ms: 1_000 },
    })
    expect(image.statusCode).toBe(422)
    expect(image.json().code).toBe('wait_timeout')
    expect(image.json().detail).toBe('no element matched "#drawn" within 1000 ms')
    // a syntax error never heals: refused at once with the parser's words, not after the budget
    const syntax = await post('/v1/pdf/from-html', {
      html: '<p>x</p>',
      wait: { expression: 'window.ready ===' },
    })
    expect(syntax.statusCode).toBe(422)
    expect(syntax.json()).toMatchObject({
      code: 'validation_error',
      detail: 'wait.expression is not valid JavaScript: SyntaxError: Unexpected end of input',
    })
  }, 60_000)

  it('refuses wait fields it does not know or values out of range, naming the field as sent', async () => {
    const flat = await post('/v1/pdf/from-html', { html: '<p>x</p>', wait: { until: 'idle' } })
    expect(flat.statusCode).toBe(400)
    expect(flat.json().errors).toContainEqual(expect.objectContaining({ path: '/wait/until' }))
    const general = await post('/v1/renders', {
      input: { type: 'markdown', markdown: 'x', wait: { timeout_ms: 500_000 } },
      output: { format: 'pdf' },
    })
    expect(general.statusCode).toBe(400)
    expect(general.json().errors).toContainEqual(expect.objectContaining({ path: '/input/wait/timeout_ms' }))
  })

  it('waits for a pdf_code template whose content has a wait', async () => {
    const created = await t.inject({
      method: 'POST',
      url: '/v1/templates',
      key: ws.liveKey,
      payload: { type: 'pdf_code', name: 'Chart', html: chart(500), wait: { selector: '#drawn' } },
    })
    expect(created.statusCode, created.body).toBe(201)
    const id = created.json().id
    expect(
      (await t.inject({ method: 'POST', url: `/v1/templates/${id}/publish`, key: ws.liveKey })).statusCode,
    ).toBe(201)
    expect(await printed('/v1/pdf/from-template', { template_id: id })).toContain('Chart drawn by script')
  }, 60_000)
})

describe('font warnings in the render record', () => {
  it('names characters no installed font covers', async () => {
    // private-use code points: no font covers them (a machine may well have a Korean font)
    const res = await post('/v1/pdf/from-html', { html: '<p>Marks: \uE000\uE001\uE002</p>' }, 'base64')
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
    const warnings: { code: string; message: string }[] = res.json().warnings
    expect(warnings).toEqual([
      {
        code: 'asset_failed',
        message: expect.stringMatching(
          /^no font has a glyph for \uE000 \(U\+E000\), \uE001 \(U\+E001\), \uE002 \(U\+E002\)/,
        ),
      },
    ])
  }, 60_000)
})
