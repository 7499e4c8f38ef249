import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeRenderPlugin } from '../renders/fake-render-plugins.fixture.ts'
import { definePlugin, type PluginManifest } from '../sdk/define-plugin.ts'
import type { TemplateEngine } from '../sdk/document-contracts.ts'
import { standardPlugin, startTestKernel, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// Decision 0036: core reaches the template engine and the document builders only through the
// registries plugins fill, so they can be replaced, and a kernel without them refuses clearly.
// The outputs are the fast fakes, whose file is the HTML they were given.

/** A stand-in engine: `{{ name }}` becomes `<name>` from the data, nothing else is Liquid. */
const bracketEngine: TemplateEngine = {
  async render(source, data) {
    return {
      output: source.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => `<${String(data[k])}>`),
      warnings: [],
    }
  },
  checkSyntax(source) {
    if (source.includes('{%')) throw new Error('the bracket engine has no tags')
  },
}

const bracketPlugin = definePlugin({
  id: 'bracket-templating',
  apiVersion: '^1',
  provides: { templateEngines: ['liquid'], documentBuilders: ['html'] },
  register({ registries }) {
    registries.templateEngines.add('liquid', bracketEngine)
    registries.documentBuilders.add('html', {
      build: ({ content, head }) => `BRACKET[${head ?? ''}|${content}]`,
    })
  },
})

async function kernelWith(...plugins: unknown[]) {
  const t = await startTestKernel({
    dialect: 'sqlite',
    builtins: [standardPlugin('queue-sqlite'), fakeRenderPlugin, ...plugins] as PluginManifest<never>[],
    roles: ['api', 'worker'],
  })
  const ws = await t.createWorkspace({ plan: 'growth' })
  await t.setPlanLimits('growth', { requests_per_second: 10_000, test_renders_per_minute: 10_000 })
  const call = (url: string, payload: object, key = ws.liveKey) =>
    t.inject({ method: 'POST', url: `/v1${url}`, key, payload })
  return { t, ws, call }
}

describe('a kernel without a template engine plugin', () => {
  let k: { t: TestKernel; ws: TestWorkspace; call: Awaited<ReturnType<typeof kernelWith>>['call'] }
  beforeAll(async () => {
    k = await kernelWith()
  })
  afterAll(() => k.t.close())

  it('answers an HTML preview with 503 service_unavailable naming the missing engine', async () => {
    const res = await k.call('/previews/html', { html: '<p>{{ n }}</p>', data: { n: 1 } })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toMatchObject({ code: 'service_unavailable', status: 503 })
    expect(res.json().detail).toContain('template engine "liquid"')
  })

  it('refuses to publish, and fails a template render, naming the missing engine', async () => {
    const tpl = (await k.call('/templates', { type: 'pdf_code', name: 'n', html: '<p>{{ n }}</p>' })).json()
    const publish = await k.call(`/templates/${tpl.id}/publish`, {})
    expect(publish.statusCode).toBe(503)
    expect(publish.json()).toMatchObject({ code: 'service_unavailable' })
    expect(publish.json().detail).toContain('template engine "liquid"')
    const render = await k.call(
      '/renders',
      { input: { type: 'template', template_id: tpl.id, version: 'draft' }, data: { n: 1 } },
      k.ws.testKey,
    )
    // a failed sync render answers with its error as a problem, as every render does
    expect(render.statusCode).toBe(503)
    expect(render.json()).toMatchObject({
      code: 'service_unavailable',
      render_error: { code: 'service_unavailable' },
      render_id: expect.stringMatching(/^rnd_/),
    })
    expect(render.json().detail).toContain('template engine "liquid"')
  })
  it('refuses to publish an image_canvas template without a scene renderer, naming it', async () => {
    const scene = { width: 10, height: 10, layers: [] }
    const tpl = (await k.call('/templates', { type: 'image_canvas', name: 'c', content: scene })).json()
    const publish = await k.call(`/templates/${tpl.id}/publish`, {})
    expect(publish.statusCode).toBe(503)
    expect(publish.json().detail).toContain('scene renderer "image_canvas"')
  })
})

describe('a template engine and a document builder registered by a plugin', () => {
  let k: Awaited<ReturnType<typeof kernelWith>>
  beforeAll(async () => {
    k = await kernelWith(bracketPlugin)
  })
  afterAll(() => k.t.close())

  it('are what previews and template renders use', async () => {
    const preview = await k.call('/previews/html', {
      html: 'hi {{ n }}',
      head: '{{ t }}',
      data: { n: 1, t: 'T' },
    })
    expect(preview.statusCode).toBe(200)
    expect(preview.json().html).toBe('BRACKET[<T>|BRACKET[|hi <1>]]')
    const tpl = (await k.call('/templates', { type: 'pdf_code', name: 'b', html: 'to {{ who }}' })).json()
    expect((await k.call(`/templates/${tpl.id}/publish`, {})).statusCode).toBe(201)
    const render = await k.call('/renders', {
      input: { type: 'template', template_id: tpl.id },
      data: { who: 'Ada' },
      delivery: 'binary',
    })
    expect(render.statusCode).toBe(200)
    expect(render.body).toBe('PDF BRACKET[|to <Ada>]')
  })
})
