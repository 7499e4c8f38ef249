import { definePlugin, type PluginManifest } from '@docsvc/core/sdk'
import {
  standardProviders,
  startTestKernel,
  TEST_DIALECTS,
  type TestKernel,
  type TestWorkspace,
} from '@docsvc/core/testing'
import { Type } from 'typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inputHtmlPlugin } from '../index.ts'
import { SLOW_SINGLE_NODE } from './runaway-template.fixture.ts'

// What an API user sees of the templating engine, through the real html input: 422 problems
// with line, column and excerpt, kept on the failed render too; runaway templates ended by the
// worker budget while the service keeps answering. The PDF stand-in returns the HTML it is given.

const echoPdfPlugin = definePlugin({
  id: 'echo-pdf',
  apiVersion: '^1',
  provides: { outputs: ['pdf'] },
  register({ registries }) {
    registries.outputs.add('pdf', {
      format: 'pdf',
      optionsSchema: Type.Object({}, { additionalProperties: true }),
      async render(doc: { kind: string; html?: string }) {
        const bytes = Buffer.from(doc.html ?? '')
        return { format: 'pdf', contentType: 'application/pdf', bytes, pages: 1 }
      },
    } as never)
  },
})

const BUILTINS = [...standardProviders(), inputHtmlPlugin, echoPdfPlugin] as PluginManifest<never>[]

// seconds of sorting in a single output: only the worker's hard time budget stops it

describe.each(TEST_DIALECTS)('Liquid templating over HTTP on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace({ plan: 'growth' })
    // a dozen quick requests in a row: the plan's 10 per second is not what these tests are about
    await t.setPlanLimits('growth', { requests_per_second: 10_000 })
  })
  afterAll(() => t.close())

  const fromHtml = (body: object) =>
    t.inject({
      method: 'POST',
      url: '/v1/pdf/from-html',
      key: ws.liveKey,
      payload: { templating: true, ...body },
    })

  async function storedRender(renderId: string) {
    const res = await t.inject({ method: 'GET', url: `/v1/renders/${renderId}`, key: ws.liveKey })
    return res.json()
  }

  it('renders data with the document filters into the document', async () => {
    const res = await fromHtml({
      html: "<p>{{ total | money: 'EUR', 'de-DE' }} / {{ issued | date_format: 'long', 'de-DE', 'Europe/Berlin' }}</p>",
      data: { total: 1234.5, issued: '2026-11-22T23:30:00Z' },
      delivery: 'binary',
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('<p>1.234,50\u00a0€ / 23. November 2026</p>')
  })

  it("formats with the output's locale when a filter names none, and warns of an unknown one", async () => {
    const html = "<p>{{ total | money: 'EUR' }}</p>"
    const german = await fromHtml({
      html,
      data: { total: 1234.5 },
      pdf: { locale: 'de-DE' },
      delivery: 'binary',
    })
    expect(german.statusCode).toBe(200)
    expect(german.body).toContain('<p>1.234,50\u00a0€</p>')
    const plain = await fromHtml({ html, data: { total: 1234.5 }, delivery: 'binary' })
    expect(plain.body).toContain('<p>€1,234.50</p>')
    const unknown = await fromHtml({ html, data: { total: 1 }, pdf: { locale: 'zz-QQ' }, mode: 'async' })
    expect(unknown.statusCode).toBe(202)
    let render = await storedRender(unknown.json().id)
    for (let i = 0; i < 100 && render.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 50))
      render = await storedRender(unknown.json().id)
    }
    expect(render.warnings).toContainEqual(expect.objectContaining({ code: 'locale_unsupported' }))
  })

  it('answers 422 template_syntax_error with line, column and excerpt, kept on the render', async () => {
    const html = '<h1>Invoice</h1>\n<p>\n  Total: {% iff paid %}paid{% endif %}\n</p>'
    const res = await fromHtml({ html })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({
      status: 422,
      code: 'template_syntax_error',
      detail: 'tag "iff" not found (line 3, column 10)',
      line: 3,
      column: 10,
      excerpt: '  Total: {% iff paid %}paid{% endif %}',
    })
    expect((await storedRender(res.json().render_id)).error).toEqual({
      code: 'template_syntax_error',
      message: 'tag "iff" not found (line 3, column 10)',
      line: 3,
      column: 10,
      excerpt: '  Total: {% iff paid %}paid{% endif %}',
    })
  })

  it('answers 422 template_runtime_error at the failing filter, naming the head', async () => {
    const res = await fromHtml({
      html: '<p>ok</p>',
      head: "<title>\n{{ name | money: 'EUR' }}</title>",
      data: { name: 'Ada' },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({
      code: 'template_runtime_error',
      detail: 'head: money: "Ada" is not a number (line 2, column 1)',
      line: 2,
      column: 1,
      excerpt: "{{ name | money: 'EUR' }}</title>",
    })
  })

  it('answers 422 template_fuel_exhausted for a runaway template within its budget, and keeps serving', async () => {
    const started = Date.now()
    const res = await fromHtml({ html: SLOW_SINGLE_NODE })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({
      code: 'template_fuel_exhausted',
      detail: 'Template exceeded its time budget of 2000 ms.',
    })
    // the default budget is 2 s; the rest is a busy test machine
    expect(Date.now() - started).toBeLessThan(4_500)
    expect((await storedRender(res.json().render_id)).error).toMatchObject({
      code: 'template_fuel_exhausted',
    })
    const next = await fromHtml({ html: '<p>{{ n | plus: 1 }}</p>', data: { n: 41 }, delivery: 'binary' })
    expect(next.statusCode).toBe(200)
    expect(next.body).toContain('<p>42</p>')
  })
})
