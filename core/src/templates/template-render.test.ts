import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// Template renders (SPEC 4.2, 4.9) with stand-in outputs: the fake PDF's bytes are the printed
// HTML, so what the template made is visible exactly.

const SCHEMA = {
  type: 'object',
  required: ['customer'],
  properties: {
    customer: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    items: { type: 'array', items: { type: 'number' } },
  },
}

describe.each(TEST_DIALECTS)('template renders on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace
  let tplId: string
  let site: Server
  let siteUrl: string

  beforeAll(async () => {
    // data_url answers: a customer that fits the schema, and one that does not
    site = createServer((req, res) => {
      const customer = req.url === '/good.json' ? { name: 'Remote' } : { name: 42 }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ customer }))
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
    t = await startTestKernel({
      dialect,
      builtins: FAKE_RENDER_BUILTINS,
      roles: ['api', 'worker'],
      env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32' },
    })
    ws = await t.createWorkspace({ plan: 'growth' })
    await t.setPlanLimits('growth', { requests_per_second: 10_000, test_renders_per_minute: 10_000 })
    const created = await call('POST', '/templates', {
      type: 'pdf_code',
      name: 'Greeting',
      html: '<p>Hello {{ customer.name }}</p>',
      css: 'p { color: red }',
      data_schema: SCHEMA,
      sample_data: { customer: { name: 'Sample' } },
    })
    tplId = created.json().id
    expect((await call('POST', `/templates/${tplId}/publish`)).statusCode).toBe(201)
  })
  afterAll(async () => {
    await t.close()
    await new Promise<void>((resolve) => site.close(() => resolve()))
  })

  function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, key = ws.liveKey) {
    return t.inject({ method, url: `/v1${url}`, key, ...(payload ? { payload } : {}) })
  }
  const render = (body: object, key = ws.liveKey) => call('POST', '/renders', body, key)
  const binary = (body: object, key = ws.liveKey) =>
    render(
      {
        delivery: 'binary',
        ...body,
        input: { type: 'template', template_id: tplId, ...(body as { input?: object }).input },
      },
      key,
    )

  async function fileOf(res: { json(): { files: { url: string }[] } }) {
    const { pathname, search } = new URL(res.json().files[0]!.url)
    return (await t.inject({ method: 'GET', url: pathname + search })).body
  }

  it('renders the live version with data through POST /v1/renders (200, template_id on the render)', async () => {
    const res = await render({
      input: { type: 'template', template_id: tplId },
      data: { customer: { name: 'Ada' } },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      status: 'succeeded',
      input_type: 'template',
      template_id: tplId,
      test: false,
    })
    const pdf = await fileOf(res)
    expect(pdf).toContain('<p>Hello Ada</p>')
    expect(pdf).toContain('<style>p { color: red }</style>')
    expect(pdf.startsWith('PDF ')).toBe(true)
    const listed = (await call('GET', `/renders?template_id=${tplId}`)).json()
    expect(listed.data.map((r: { id: string }) => r.id)).toContain(res.json().id)
    expect((await call('GET', '/renders?template_id=tpl_other')).json().data).toEqual([])
  })

  it('checks data against the version schema at creation (422 data_schema_mismatch with pointers)', async () => {
    const res = await render({
      input: { type: 'template', template_id: tplId },
      data: { customer: {}, items: [1, 'two'] },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ code: 'data_schema_mismatch', status: 422 })
    expect(res.json().render_id).toBeUndefined()
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/data/customer/name', code: 'required' }),
        expect.objectContaining({ path: '/data/items/1', code: 'type' }),
      ]),
    )
    const none = await render({ input: { type: 'template', template_id: tplId } })
    expect(none.json().errors).toContainEqual(expect.objectContaining({ path: '/data/customer' }))
  })

  it('checks data from data_url against the schema when the render runs (422 data_schema_mismatch)', async () => {
    const good = await binary({ data_url: `${siteUrl}/good.json` })
    expect(good.statusCode).toBe(200)
    expect(good.body).toContain('Hello Remote')
    const bad = await binary({ data_url: `${siteUrl}/bad.json` })
    expect(bad.statusCode).toBe(422)
    expect(bad.json()).toMatchObject({
      code: 'data_schema_mismatch',
      render_error: { code: 'data_schema_mismatch' },
    })
    expect(bad.json().render_id).toMatch(/^rnd_/)
  })

  it('renders a version by number, and the draft only with a test key (403 test_key_required)', async () => {
    const tpl = (
      await call('POST', '/templates', { type: 'pdf_code', name: 'v', html: 'one {{ n }}' })
    ).json()
    await call('POST', `/templates/${tpl.id}/publish`)
    await call('PUT', `/templates/${tpl.id}/draft`, { revision: 1, content: { html: 'two {{ n }}' } })
    await call('POST', `/templates/${tpl.id}/publish`)
    await call('PUT', `/templates/${tpl.id}/draft`, { revision: 2, content: { html: 'draft {{ n }}' } })
    const input = (version?: unknown) => ({
      type: 'template',
      template_id: tpl.id,
      ...(version ? { version } : {}),
    })
    const body = async (res: { statusCode: number; body: string }) => {
      expect(res.statusCode).toBe(200)
      return res.body
    }
    expect(await body(await render({ input: input(), data: { n: 1 }, delivery: 'binary' }))).toContain(
      'two 1',
    )
    expect(await body(await render({ input: input(1), data: { n: 1 }, delivery: 'binary' }))).toContain(
      'one 1',
    )
    const live = await render({ input: input('draft'), delivery: 'binary' })
    expect(live.statusCode).toBe(403)
    expect(live.json()).toMatchObject({ code: 'test_key_required' })
    const test = await render({ input: input('draft'), data: { n: 3 }, delivery: 'binary' }, ws.testKey)
    expect(await body(test)).toBe(
      'PDF TEST <!doctype html><html><head><meta charset="utf-8"></head><body>draft 3</body></html>',
    )
    // a workspace may let live keys render drafts
    const { workspaceRepository } = t.kernel.container.cradle
    const allowed = await t.createWorkspace({ plan: 'growth' })
    const current = (await workspaceRepository.get(allowed.workspace.id))!
    await workspaceRepository.update(allowed.workspace.id, {
      settings: { ...current.settings, allow_live_drafts: true },
    })
    const own = (
      await call('POST', '/templates', { type: 'pdf_code', name: 'd', html: 'mine' }, allowed.liveKey)
    ).json()
    const ok = await render(
      { input: { type: 'template', template_id: own.id, version: 'draft' } },
      allowed.liveKey,
    )
    expect(ok.statusCode).toBe(200)
    const missing = await render({ input: input(9) })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ code: 'version_not_found' })
  })

  it('answers 404 template_not_found, 404 version_not_found before a publish, 410 template_deleted', async () => {
    const unknown = await render({ input: { type: 'template', template_id: 'tpl_nope' } })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().code).toBe('template_not_found')
    const fresh = (await call('POST', '/templates', { type: 'pdf_code', name: 'n', html: 'x' })).json()
    const unpublished = await render({ input: { type: 'template', template_id: fresh.id } })
    expect(unpublished.statusCode).toBe(404)
    expect(unpublished.json().code).toBe('version_not_found')
    await call('POST', `/templates/${fresh.id}/publish`)
    await call('DELETE', `/templates/${fresh.id}`)
    const deleted = await render({ input: { type: 'template', template_id: fresh.id } })
    expect(deleted.statusCode).toBe(410)
    expect(deleted.json()).toMatchObject({ code: 'template_deleted', status: 410 })
    const pdf = await call('POST', '/pdf/from-template', { template_id: fresh.id })
    expect(pdf.statusCode).toBe(410)
  })

  it('refuses templates outside the key allowlist (403 template_not_allowed_for_key)', async () => {
    const { key } = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'live',
      templateAllowlist: ['tpl_other'],
    })
    const res = await render(
      { input: { type: 'template', template_id: tplId }, data: { customer: { name: 'x' } } },
      key,
    )
    expect(res.statusCode).toBe(403)
    expect(res.json().code).toBe('template_not_allowed_for_key')
    const conv = await call('POST', '/images/from-template', { template_id: tplId }, key)
    expect(conv.json().code).toBe('template_not_allowed_for_key')
  })

  it('validates the template input (400 with /input pointers)', async () => {
    const res = await render({ input: { type: 'template', version: 'newest' } })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/input/template_id', code: 'required' }),
        expect.objectContaining({ path: '/input/version' }),
      ]),
    )
  })

  it('serves /v1/pdf/from-template and /v1/images/from-template with filename expressions', async () => {
    const pdf = await call('POST', '/pdf/from-template', {
      template_id: tplId,
      data: { customer: { name: 'Bo' } },
      filename: 'greeting-{{ customer.name | downcase }}.pdf',
    })
    expect(pdf.statusCode).toBe(200)
    expect(pdf.json()).toMatchObject({ template_id: tplId, output_format: 'pdf' })
    expect(pdf.json().files[0].filename).toBe('greeting-bo.pdf')
    expect(await fileOf(pdf)).toContain('Hello Bo')
    const png = await call('POST', '/images/from-template', {
      template_id: tplId,
      version: 1,
      format: 'png',
      data: { customer: { name: 'Cy' } },
      delivery: 'binary',
    })
    expect(png.statusCode).toBe(200)
    expect(png.headers['content-type']).toBe('image/png')
    expect(png.body).toContain('PNG <!doctype html>')
    expect(png.body).toContain('Hello Cy')
    const bad = await call('POST', '/pdf/from-template', { template_id: tplId, data: { customer: 3 } })
    expect(bad.json()).toMatchObject({ code: 'data_schema_mismatch' })
    expect(bad.json().errors).toContainEqual(
      expect.objectContaining({ path: '/data/customer', code: 'type' }),
    )
  })

  it('applies overrides (css, header and footer) and refuses unknown ones (400)', async () => {
    const res = await binary({
      data: { customer: { name: 'Di' } },
      overrides: [{ css: 'p { color: blue }' }],
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('p { color: red }\np { color: blue }')
    const bad = await binary({ data: { customer: { name: 'Di' } }, overrides: [{ html: '<p>no</p>' }] })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors).toContainEqual(
      expect.objectContaining({ path: '/overrides/0/html', code: 'unknown_field' }),
    )
  })

  it('uses the named dataset, else the default dataset, when the request has no data', async () => {
    const base = `/templates/${tplId}/datasets`
    const named = (await call('POST', base, { name: 'n', data: { customer: { name: 'Named' } } })).json()
    await call('POST', base, { name: 'd', data: { customer: { name: 'Default' } }, is_default: true })
    expect((await binary({ input: { dataset_id: named.id } })).body).toContain('Hello Named')
    expect((await binary({})).body).toContain('Hello Default')
    expect((await binary({ data: { customer: { name: 'Given' } } })).body).toContain('Hello Given')
    const unknown = await binary({ input: { dataset_id: 'ds_nope' } })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().errors).toContainEqual(
      expect.objectContaining({ path: '/input/dataset_id', code: 'not_found' }),
    )
    const flat = await call('POST', '/pdf/from-template', {
      template_id: tplId,
      dataset_id: named.id,
      delivery: 'binary',
    })
    expect(flat.body).toContain('Hello Named')
  })

  it('reports a template error of a render with line, column and excerpt, in the 422 and the render', async () => {
    const tpl = (
      await call('POST', '/templates', {
        type: 'pdf_code',
        name: 'broken',
        html: 'a\nb\nc\nd\ne\nf\n     <p>Hi {% bogus %}</p>',
      })
    ).json()
    const res = await render(
      { input: { type: 'template', template_id: tpl.id, version: 'draft' } },
      ws.testKey,
    )
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({
      code: 'template_syntax_error',
      line: 7,
      column: 12,
      excerpt: '     <p>Hi {% bogus %}</p>',
      render_error: {
        code: 'template_syntax_error',
        line: 7,
        column: 12,
        excerpt: '     <p>Hi {% bogus %}</p>',
      },
    })
    const stored = await call('GET', `/renders/${res.json().render_id}`, undefined, ws.testKey)
    expect(stored.json()).toMatchObject({
      status: 'failed',
      error: { code: 'template_syntax_error', line: 7, column: 12, excerpt: '     <p>Hi {% bogus %}</p>' },
    })
  })
})
