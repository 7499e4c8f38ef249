import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// SPEC 4.10 previews with stand-in outputs: the fake file's bytes show the HTML it printed and
// whether it was watermarked (a test render).

describe.each(TEST_DIALECTS)('previews on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace
  let tplId: string

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace({ plan: 'growth' })
    await t.setPlanLimits('growth', { requests_per_second: 10_000, test_renders_per_minute: 10_000 })
    tplId = (
      await call('POST', '/templates', {
        type: 'pdf_code',
        name: 'Card',
        html: '<p>{{ greeting }}, {{ name }}</p>{% render "sig" %}',
        partials: { sig: '<i>team</i>' },
        sample_data: { greeting: 'Hello', name: 'Sample' },
      })
    ).json().id
  })
  afterAll(() => t.close())

  function call(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, key = ws.liveKey) {
    return t.inject({ method, url: `/v1${url}`, key, ...(payload ? { payload } : {}) })
  }

  it('previews inline HTML and Markdown with data, partials and head (200 html_preview)', async () => {
    const res = await call('POST', '/previews/html', {
      html: '<p>{{ n | plus: 1 }}</p>{% render "row", v: n %}',
      partials: { row: '<b>{{ v }}</b>' },
      head: '<title>{{ n }}</title>',
      data: { n: 41 },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      object: 'html_preview',
      template_id: null,
      html: '<!doctype html><html><head><meta charset="utf-8"><title>41</title></head><body><p>42</p><b>41</b></body></html>',
    })
    const md = await call('POST', '/previews/html', { markdown: '# {{ title }}', data: { title: 'Report' } })
    expect(md.json().html).toContain('<h1>Report</h1>')
    expect(md.json().html).toContain('<title>Report</title>')
  })

  it("previews a template's draft with its sample data, or the request's data", async () => {
    const sample = await call('POST', '/previews/html', { template_id: tplId })
    expect(sample.json()).toMatchObject({ template_id: tplId })
    expect(sample.json().html).toContain('<p>Hello, Sample</p><i>team</i>')
    const given = await call('POST', '/previews/html', {
      template_id: tplId,
      data: { greeting: 'Hi', name: 'Al' },
    })
    expect(given.json().html).toContain('<p>Hi, Al</p>')
    const edited = await call('POST', '/previews/html', { template_id: tplId, html: '<p>{{ name }}!</p>' })
    expect(edited.json().html).toContain('<p>Sample!</p>')
  })

  it("previews a template with its default dataset's data before its sample data", async () => {
    const id = (
      await call('POST', '/templates', {
        type: 'pdf_code',
        name: 'With dataset',
        html: '<p>{{ name }}</p>',
        sample_data: { name: 'Sample' },
      })
    ).json().id
    const dataset = await call('POST', `/templates/${id}/datasets`, {
      name: 'Default',
      data: { name: 'From dataset' },
      is_default: true,
    })
    expect(dataset.statusCode).toBe(201)
    const res = await call('POST', '/previews/html', { template_id: id })
    expect(res.statusCode).toBe(200)
    expect(res.json().html).toContain('<p>From dataset</p>')
  })

  it('makes undefined variables errors with strict_undefined (422 template_runtime_error at its place)', async () => {
    const lax = await call('POST', '/previews/html', { html: '<p>[{{ missing }}]</p>' })
    expect(lax.json().html).toContain('<p>[]</p>')
    const strict = await call('POST', '/previews/html', {
      html: 'line one\n  <p>{{ missing }}</p>',
      strict_undefined: true,
    })
    expect(strict.statusCode).toBe(422)
    expect(strict.json()).toMatchObject({
      code: 'template_runtime_error',
      line: 2,
      column: 9,
      excerpt: '  <p>{{ missing }}</p>',
    })
  })

  it('reports syntax errors at line 7 column 12 with the excerpt (422 template_syntax_error)', async () => {
    const res = await call('POST', '/previews/html', { html: 'a\nb\nc\nd\ne\nf\n     <p>Hi {% bogus %}</p>' })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({
      code: 'template_syntax_error',
      status: 422,
      line: 7,
      column: 12,
      excerpt: '     <p>Hi {% bogus %}</p>',
    })
  })

  it('ends a runaway template with 422 template_fuel_exhausted, and keeps answering', async () => {
    const res = await call('POST', '/previews/html', {
      html: '{% for i in (1..1000000000) %}{{ i }}{% endfor %}',
    })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ code: 'template_fuel_exhausted', status: 422 })
    expect(
      (await call('POST', '/previews/html', { html: 'still {{ ok }}', data: { ok: 'here' } })).json().html,
    ).toContain('still here')
  })

  it('answers 400, 403, 404 and 410 like every template use', async () => {
    const noType = await call('POST', '/previews/html', { content: { html: 'x' } })
    expect(noType.statusCode).toBe(400)
    expect(noType.json().errors).toContainEqual(
      expect.objectContaining({ path: '/template_type', code: 'required' }),
    )
    const unknown = await call('POST', '/previews/html', { template_id: 'tpl_nope' })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().code).toBe('template_not_found')
    const { key: limited } = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'live',
      templateAllowlist: ['tpl_x'],
    })
    const refused = await call('POST', '/previews/pdf', { template_id: tplId }, limited)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('template_not_allowed_for_key')
    const { key: renderOnly } = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'live',
      scopes: ['render:write'],
    })
    expect((await call('POST', '/previews/html', { html: 'x' }, renderOnly)).json().code).toBe(
      'insufficient_scope',
    )
    const gone = (await call('POST', '/templates', { type: 'pdf_code', name: 'g', html: 'x' })).json()
    await call('DELETE', `/templates/${gone.id}`)
    const deleted = await call('POST', '/previews/image', { template_id: gone.id })
    expect(deleted.statusCode).toBe(410)
    expect(deleted.json().code).toBe('template_deleted')
    const version = await call('POST', '/previews/pdf', { template_id: tplId, version: 4 })
    expect(version.statusCode).toBe(404)
    expect(version.json().code).toBe('version_not_found')
  })

  it('makes PDF and image previews as watermarked, unbilled test renders, even with a live key', async () => {
    const usage = async () => (await call('GET', '/account')).json().usage.renders
    const before = await usage()
    const pdf = await call('POST', '/previews/pdf', {
      template_id: tplId,
      data: { greeting: 'Yo', name: 'Ed' },
    })
    expect(pdf.statusCode).toBe(200)
    expect(pdf.json()).toMatchObject({
      status: 'succeeded',
      test: true,
      output_format: 'pdf',
      template_id: tplId,
    })
    const { pathname, search } = new URL(pdf.json().files[0].url)
    const bytes = (await t.inject({ method: 'GET', url: pathname + search })).body
    expect(bytes).toMatch(/^PDF TEST /)
    expect(bytes).toContain('<p>Yo, Ed</p><i>team</i>')
    const png = await call('POST', '/previews/image', {
      template_type: 'pdf_code',
      content: { html: '<p>{{ x }}</p>' },
      data: { x: 'inline' },
      output: { format: 'png' },
    })
    expect(png.statusCode).toBe(200)
    expect(png.json()).toMatchObject({
      status: 'succeeded',
      test: true,
      output_format: 'png',
      template_id: null,
    })
    expect(await usage()).toBe(before)
    const badFormat = await call('POST', '/previews/image', { template_id: tplId, output: { format: 'pdf' } })
    expect(badFormat.statusCode).toBe(400)
    expect(badFormat.json().errors).toContainEqual(expect.objectContaining({ path: '/output/format' }))
  })

  it('answers 202 with a Location when the preview outlasts the sync timeout; the test key reads it', async () => {
    const { planRepository } = t.kernel.container.cradle
    const plan = (await planRepository.get('growth'))!
    await planRepository.update({ ...plan, limits: { ...plan.limits, sync_timeout_seconds: 1 } })
    try {
      const res = await call('POST', '/previews/pdf', {
        template_type: 'pdf_code',
        content: { html: 'sleep:2000' },
      })
      expect(res.statusCode).toBe(202)
      expect(res.headers.location).toBe(`/v1/renders/${res.json().id}`)
      expect(res.json()).toMatchObject({ test: true, kind: 'preview' })
      const read = await t.inject({ method: 'GET', url: res.headers.location as string, key: ws.testKey })
      expect(read.statusCode).toBe(200)
    } finally {
      await planRepository.update(plan)
    }
  })

  it('refuses image and PDF previews outside the workspace regions (403 region_not_enabled)', async () => {
    const elsewhere = await t.createWorkspace({ plan: 'growth' })
    await t.kernel.container.cradle.workspaceRepository.update(elsewhere.workspace.id, { regions: ['us'] })
    const res = await call(
      'POST',
      '/previews/image',
      { template_type: 'pdf_code', content: { html: 'x' } },
      elsewhere.liveKey,
    )
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ code: 'region_not_enabled', status: 403 })
  })

  it('answers a preview whose template fails with 422 and the render', async () => {
    const res = await call('POST', '/previews/pdf', {
      template_type: 'pdf_code',
      content: { html: '{% include "nowhere" %}' },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ code: 'template_runtime_error', line: 1, column: 1 })
    expect(res.json().render_id).toMatch(/^rnd_/)
  })
})
