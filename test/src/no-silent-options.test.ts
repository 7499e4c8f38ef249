import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_OUTPUT_BUILTINS, FAKE_TEST_MARK } from '../../core/src/renders/fake-render-plugins.fixture.ts'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'

// Issue 15 item 4, "no silent no-ops", for what needs no browser: options that used to be taken
// and ignored now take effect or are refused naming the field. The real inputs and PDF tools with
// Chromium's outputs faked; the Chromium side (metadata, titles, margins, headers) is in
// render-options-chromium.test.ts.

// a public address literal: taken without DNS; these kernels deliver nothing (no worker, or no hook)
const HOOK = 'https://93.184.215.14/hooks'

type Problem = { code: string; detail: string; errors: { path: string; code: string; message: string }[] }

describe('refused at creation instead of ignored (API only)', () => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ builtins: FAKE_OUTPUT_BUILTINS, testMark: FAKE_TEST_MARK })
    ws = await t.createWorkspace({ plan: 'scale' })
  })
  afterAll(() => t?.close())

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, key = ws.testKey) =>
    t.inject({ method, url, key, ...(payload ? { payload } : {}) })
  const problem = (res: { statusCode: number; json(): unknown }, status = 400) => {
    expect(res.statusCode).toBe(status)
    return res.json() as Problem
  }

  it('lists in capabilities.pdfTools only the tools a client can call', async () => {
    const account = await call('GET', '/v1/account')
    const tools: string[] = account.json().capabilities.pdfTools
    expect(tools).not.toContain('attach')
    expect(tools).toEqual(
      expect.arrayContaining(['merge', 'metadata', 'protect', 'rotate', 'split', 'unlock']),
    )
    for (const tool of tools) {
      // every listed tool has its route: an empty body is a validation problem, never a 404
      const res = await call('POST', `/v1/pdf-tools/${tool}`, {})
      expect(res.statusCode, tool).toBe(400)
    }
  })

  it('refuses an inline webhook while no enabled default endpoint can sign it, saying how to fix it', async () => {
    const async = { mode: 'async', html: '<p>x</p>' }
    const general = problem(
      await call('POST', '/v1/renders', {
        mode: 'async',
        input: { type: 'html', html: '<p>x</p>' },
        webhook: { url: HOOK },
      }),
    )
    expect(general.code).toBe('validation_error')
    expect(general.errors).toEqual([
      expect.objectContaining({ path: '/webhook', code: 'default_endpoint_required' }),
    ])
    expect(general.detail).toContain('is_default')
    expect(general.detail).toContain('POST /v1/webhook-endpoints')
    // the convenience spelling is named as sent
    const flat = problem(await call('POST', '/v1/pdf/from-html', { ...async, webhook_url: HOOK }))
    expect(flat.errors.map((e) => e.path)).toEqual(['/webhook_url'])

    // a default endpoint that is disabled cannot sign either
    const created = await call('POST', '/v1/webhook-endpoints', {
      url: HOOK,
      events: ['render.succeeded'],
      is_default: true,
      enabled: false,
    })
    expect(created.statusCode).toBe(201)
    problem(await call('POST', '/v1/pdf/from-html', { ...async, webhook: { url: HOOK } }))
    // a live key looks for a live default endpoint: the test one does not sign live deliveries
    await call('PATCH', `/v1/webhook-endpoints/${created.json().id}`, { enabled: true })
    const live = problem(
      await call('POST', '/v1/pdf/from-html', { ...async, webhook: { url: HOOK } }, ws.liveKey),
    )
    expect(live.errors[0]?.message).toContain('live keys')
    // with it enabled, the same request is taken
    const taken = await call('POST', '/v1/pdf/from-html', { ...async, webhook: { url: HOOK } })
    expect(taken.statusCode).toBe(202)
    // a render without a webhook never needed one
    expect((await call('POST', '/v1/pdf/from-html', async, ws.liveKey)).statusCode).toBe(202)
  })

  it('takes engine "chromium" (or null) and refuses any other, listing the value it takes', async () => {
    for (const engine of ['chromium', null]) {
      const res = await call('POST', '/v1/pdf/from-html', { mode: 'async', html: '<p>x</p>', engine })
      expect(res.statusCode, String(engine)).toBe(202)
    }
    for (const [url, body] of [
      ['/v1/pdf/from-html', { html: '<p>x</p>' }],
      ['/v1/renders', { input: { type: 'markdown', markdown: '# x' } }],
      ['/v1/images/from-url', { url: 'https://example.com/' }],
    ] as const) {
      const refused = problem(await call('POST', url, { ...body, mode: 'async', engine: 'webkit' }))
      expect(refused.errors, url).toEqual([expect.objectContaining({ path: '/engine', code: 'enum' })])
      expect(refused.errors[0]?.message).toContain('"chromium"')
    }
  })

  it('refuses any engine for an image_canvas template, which the canvas renderer draws', async () => {
    const template = await call('POST', '/v1/templates', {
      type: 'image_canvas',
      name: 'Card',
      content: { width: 100, height: 50, layers: [] },
    })
    expect(template.statusCode).toBe(201)
    const refused = problem(
      await call('POST', '/v1/images/from-template', {
        template_id: template.json().id,
        version: 'draft',
        mode: 'async',
        engine: 'chromium',
      }),
    )
    expect(refused.errors).toEqual([expect.objectContaining({ path: '/engine' })])
    expect(refused.errors[0]?.message).toContain('leave engine out')
    const preview = problem(
      await call('POST', '/v1/previews/image', {
        template_type: 'image_canvas',
        content: { width: 100, height: 50, layers: [] },
        engine: 'webkit',
      }),
    )
    expect(preview.errors.map((e) => e.path)).toEqual(['/engine'])
  })
})

describe('rendered as asked (fake outputs)', () => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({
      builtins: FAKE_OUTPUT_BUILTINS,
      testMark: FAKE_TEST_MARK,
      roles: ['api', 'worker'],
    })
    ws = await t.createWorkspace({ plan: 'scale' })
  })
  afterAll(() => t?.close())

  const post = (url: string, payload: object) => t.inject({ method: 'POST', url, key: ws.liveKey, payload })

  it('renders Markdown to an image on /v1/images/from-markdown, as PNG by default', async () => {
    const png = await post('/v1/images/from-markdown', {
      markdown: '# Quarterly report\n\nAll **good**.',
      theme: 'github',
      delivery: 'binary',
    })
    expect(png.statusCode).toBe(200)
    expect(png.headers['content-type']).toBe('image/png')
    // the fake output prints the document it was given: the Markdown made HTML
    expect(png.body).toMatch(/<h1[^>]*>Quarterly report<\/h1>/)
    expect(png.body).toContain('<strong>good</strong>')
    const jpeg = await post('/v1/images/from-markdown', {
      markdown: 'Hi {{ name }}',
      templating: true,
      data: { name: 'Ada' },
      format: 'jpeg',
    })
    expect(jpeg.statusCode).toBe(200)
    expect(jpeg.json()).toMatchObject({ input_type: 'markdown', files: [{ format: 'jpeg' }] })
    const file = await t.inject({ method: 'GET', url: `${jpeg.json().files[0].url}` })
    expect(file.body).toContain('Hi Ada')
  })

  it('fills the filename of inline HTML and Markdown with templating: true from the data', async () => {
    const html = await post('/v1/pdf/from-html', {
      html: '<p>{{ customer }}</p>',
      templating: true,
      data: { number: '2026-0042', customer: 'Ada' },
      filename: 'invoice-{{ number }}.pdf',
      delivery: 'binary',
    })
    expect(html.statusCode).toBe(200)
    expect(html.headers['content-disposition']).toContain('invoice-2026-0042.pdf')
    const markdown = await post('/v1/pdf/from-markdown', {
      markdown: '# {{ title }}',
      templating: true,
      data: { title: 'Notes' },
      filename: '{{ title | downcase }}',
    })
    expect(markdown.json().files[0].filename).toBe('notes.pdf')
    // without templating the name is taken as written: Liquid is only run when asked for
    const literal = await post('/v1/pdf/from-html', { html: '<p>x</p>', filename: 'a-{{ b }}.pdf' })
    expect(literal.json().files[0].filename).toBe('a-{{ b }}.pdf')
  })

  it('fails a templated filename with a Liquid error as a template error naming the field', async () => {
    const res = await post('/v1/pdf/from-html', {
      html: '<p>x</p>',
      templating: true,
      filename: 'a-{% if %}.pdf',
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().code).toBe('template_syntax_error')
    expect(res.json().detail).toContain('filename')
  })
})
