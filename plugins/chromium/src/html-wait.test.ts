import { ProblemError, type RenderDocument, type WaitOptions } from '@docsvc/core/sdk'
import { describe, expect, it } from 'vitest'
import { outputContext, pdfText, poolWithServer } from './chromium-test-support.ts'
import { PdfOutput } from './pdf-output.ts'

// `wait` on inline HTML (issue 15): a page whose script draws after it has loaded prints what it
// drew only when the render waits for it; the same loader serves URL inputs (url-input.test.ts).

// the page's data arrives 500 ms after it asks: network idle is what tells it was drawn
const chromium = poolWithServer({
  '/figures': (_req, res) =>
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' })
      res.end('Figures from the server')
    }, 500),
})
const pdf = {
  render: (...args: Parameters<PdfOutput['render']>) => new PdfOutput(chromium.pool()).render(...args),
}

/** A chart that its script draws `ms` after the page has loaded, and then flags as ready. */
const drawnAfter = (ms: number, wait?: WaitOptions): RenderDocument => ({
  kind: 'html',
  html: `<h1>Sales</h1><div id="chart">Loading chart</div><script>
    addEventListener('load', () => setTimeout(() => {
      const drawn = document.createElement('p')
      drawn.id = 'drawn'
      drawn.textContent = 'Chart drawn by script'
      document.getElementById('chart').replaceWith(drawn)
      window.chartReady = true
    }, ${ms}))</script>`,
  ...(wait ? { wait } : {}),
})

const printed = async (doc: RenderDocument) => pdfText((await pdf.render(doc, {}, outputContext())).bytes)

async function refusal(doc: RenderDocument): Promise<ProblemError> {
  const error = await pdf.render(doc, {}, outputContext()).catch((err: unknown) => err)
  expect(error).toBeInstanceOf(ProblemError)
  return error as ProblemError
}

describe('wait on inline HTML', () => {
  it('prints before the script draws without a wait', async () => {
    // drawn 3 s after load: printing right after load never sees it
    const text = await printed(drawnAfter(3_000))
    expect(text).toContain('Loading chart')
    expect(text).not.toContain('Chart drawn by script')
  })

  it('prints what the script drew once a selector matches', async () => {
    const text = await printed(drawnAfter(500, { selector: '#drawn' }))
    expect(text).toContain('Chart drawn by script')
    expect(text).not.toContain('Loading chart')
  })

  it('prints what the script drew once an expression is true', async () => {
    const text = await printed(drawnAfter(500, { expression: 'window.chartReady === true' }))
    expect(text).toContain('Chart drawn by script')
  })

  it('takes an expression that returns a promise, and one that throws until the page is ready', async () => {
    const promise = await printed(
      drawnAfter(500, {
        expression: "new Promise((ok) => setTimeout(() => ok(document.getElementById('drawn')), 50))",
      }),
    )
    expect(promise).toContain('Chart drawn by script')
    // a ReferenceError before the chart exists counts as "not yet"
    const throwing = await printed(
      drawnAfter(500, { expression: "document.getElementById('drawn').id === 'drawn'" }),
    )
    expect(throwing).toContain('Chart drawn by script')
  })

  it('prints what the script drew after a delay', async () => {
    const text = await printed(drawnAfter(500, { delay_ms: 2_500 }))
    expect(text).toContain('Chart drawn by script')
  })

  it('prints data the page fetched once the network is idle', async () => {
    const page = (wait?: WaitOptions): RenderDocument => ({
      kind: 'html',
      html: `<p id="out">No figures yet</p><script>
        fetch(${JSON.stringify(chromium.server().url('/figures'))}).then((r) => r.text())
          .then((t) => { document.getElementById('out').textContent = t })</script>`,
      ...(wait ? { wait } : {}),
    })
    expect(await printed(page({ until: 'networkidle' }))).toContain('Figures from the server')
  })

  it('fails with wait_timeout when a selector never matches, naming it and the budget', async () => {
    const error = await refusal(drawnAfter(500, { selector: '#never', timeout_ms: 1_500 }))
    expect(error.code).toBe('wait_timeout')
    expect(error.message).toBe('no element matched "#never" within 1500 ms')
  })

  it('fails with wait_timeout when an expression never becomes true, with what it last threw', async () => {
    const never = await refusal(
      drawnAfter(100, { expression: 'window.chartReady === 42', timeout_ms: 1_500 }),
    )
    expect(never.code).toBe('wait_timeout')
    expect(never.message).toBe('wait.expression "window.chartReady === 42" was not true within 1500 ms')
    const throwing = await refusal(drawnAfter(100, { expression: 'chart.done', timeout_ms: 1_000 }))
    expect(throwing.code).toBe('wait_timeout')
    expect(throwing.message).toContain('it last threw ReferenceError: chart is not defined')
  })

  it('ends an expression that never returns at the deadline', async () => {
    const started = Date.now()
    const error = await refusal(drawnAfter(100, { expression: 'while (true) {}', timeout_ms: 1_000 }))
    expect(error.code).toBe('wait_timeout')
    // the page is usable again: the next render on the pool prints
    expect(await printed(drawnAfter(100, { selector: '#drawn' }))).toContain('Chart drawn by script')
    expect(Date.now() - started).toBeLessThan(15_000)
  })

  it('refuses an expression that is not JavaScript at once, with the parser message', async () => {
    const error = await refusal(drawnAfter(100, { expression: 'window.chartReady ===', timeout_ms: 20_000 }))
    expect(error.code).toBe('validation_error')
    expect(error.message).toBe(
      'wait.expression is not valid JavaScript: SyntaxError: Unexpected end of input',
    )
  })

  it('finds a selector in a document without scripts (rendered with scripts off)', async () => {
    const doc: RenderDocument = {
      kind: 'html',
      html: '<h1 class="title">Static report</h1>',
      wait: { selector: 'h1.title', timeout_ms: 5_000, until: 'networkidle' },
    }
    expect(await printed(doc)).toContain('Static report')
  })

  it('runs the expression in the page, never in the service', async () => {
    const doc: RenderDocument = {
      kind: 'html',
      html: '<p id="out">page</p>',
      wait: {
        expression: "document.getElementById('out').textContent = typeof process + ' ' + typeof require",
      },
    }
    expect(await printed(doc)).toContain('undefined undefined')
  })
})
