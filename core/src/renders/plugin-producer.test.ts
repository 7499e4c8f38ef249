import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProblemError } from '../kernel/problem-error.ts'
import { definePlugin, type PluginManifest } from '../sdk/define-plugin.ts'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { FAKE_RENDER_BUILTINS } from './fake-render-plugins.fixture.ts'

// A third party adds a render kind the way core adds template and PDF tool renders: a producer
// in the `producers` registry (decision 0038). It checks its input at creation and prints
// through the standard second half.
const greetingPlugin = definePlugin({
  id: 'greeting-producer',
  apiVersion: '^1',
  provides: { producers: ['greeting'] },
  register({ registries }) {
    registries.producers.add('greeting', {
      inputType: 'greeting',
      validate(request) {
        if (typeof request.input.name !== 'string')
          throw new ProblemError('validation_error', 'input.name is required', {
            errors: [{ path: '/input/name', code: 'required', message: 'must be a string' }],
          })
      },
      async produce(ctx) {
        const file = await ctx.print({
          kind: 'html',
          html: `pages:2 Hello ${String(ctx.render.request.input.name)}`,
        })
        return { files: [file], result: { greeted: ctx.render.request.input.name } }
      },
    })
  },
})

// one printed file (handed back as a copy) and one it draws itself: each is finished once
const posterPlugin = definePlugin({
  id: 'poster-producer',
  apiVersion: '^1',
  provides: { producers: ['poster'] },
  register({ registries }) {
    registries.producers.add('poster', {
      inputType: 'poster',
      async produce(ctx) {
        const printed = await ctx.print({ kind: 'html', html: 'printed poster' })
        const drawn = {
          format: 'pdf' as const,
          contentType: 'application/pdf',
          bytes: Buffer.from('PDF drawn poster'),
        }
        return { files: [{ ...printed, filename: 'printed.pdf' }, drawn] }
      },
    })
  },
})

describe('a plugin that registers a render producer', () => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({
      builtins: [
        ...FAKE_RENDER_BUILTINS,
        greetingPlugin as PluginManifest<never>,
        posterPlugin as PluginManifest<never>,
      ],
      roles: ['api', 'worker'],
    })
    ws = await t.createWorkspace({ plan: 'scale' })
  })
  afterAll(() => t.close())

  it('renders its input type through POST /v1/renders, printed by the output plugin', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.liveKey,
      payload: { input: { type: 'greeting', name: 'Ada' }, output: { format: 'pdf' }, delivery: 'binary' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('PDF pages:2 Hello Ada')
  })

  it('refuses a bad input with the producer’s own problem, before the render exists', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.liveKey,
      payload: { input: { type: 'greeting' } },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'validation_error', errors: [{ path: '/input/name' }] })
  })

  it('shows in GET /v1/account capabilities beside core’s producers', async () => {
    const res = await t.inject({ method: 'GET', url: '/v1/account', key: ws.liveKey })
    expect(res.json().capabilities.producers).toEqual([
      'einvoice',
      'greeting',
      'pdf_tool',
      'poster',
      'template',
    ])
  })

  it('finishes every PDF the producer returns once, printed or drawn by itself (decision 0121)', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.liveKey,
      payload: { input: { type: 'poster' }, output: { format: 'pdf', pdf: { pdfa: '3b' } } },
    })
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
    const texts = await Promise.all(
      (res.json().files as { url: string }[]).map(async ({ url }) => {
        const { pathname, search } = new URL(url)
        return (await t.inject({ method: 'GET', url: pathname + search })).body
      }),
    )
    expect(texts).toHaveLength(2)
    for (const text of texts) expect(text.split('[fake-pdfa').length - 1, text).toBe(1)
    expect(texts[1]).toContain('drawn poster')
  })
})
