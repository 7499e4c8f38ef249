import { Type } from 'typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { definePlugin, type PluginManifest } from '../sdk/define-plugin.ts'
import { standardPlugin, startTestKernel, type TestKernel, type TestWorkspace } from '../testing/index.ts'

// Decision 0036: the protect tool's fields are the `protect` options of the PDF output a plugin
// registered (Chromium's in the standard build), read when the routes are built; core imports
// no browser plugin for them.

const PDF = Buffer.from('%PDF-1.4\n%%EOF\n')
const source = { data_uri: `data:application/pdf;base64,${PDF.toString('base64')}` }

/** A PDF output whose protect options are one field of its own. */
const ownProtectPlugin = definePlugin({
  id: 'own-protect-output',
  apiVersion: '^1',
  provides: { outputs: ['pdf'] },
  register({ registries }) {
    registries.outputs.add('pdf', {
      format: 'pdf',
      optionsSchema: Type.Object(
        { protect: Type.Optional(Type.Object({ secret: Type.String() }, { additionalProperties: false })) },
        { additionalProperties: false },
      ),
      render: async () => {
        throw new Error('not used')
      },
    } as never)
  },
})

async function kernelWith(...plugins: unknown[]) {
  const t = await startTestKernel({
    dialect: 'sqlite',
    builtins: [
      standardPlugin('queue-sqlite'),
      standardPlugin('pdf-tools'),
      ...plugins,
    ] as PluginManifest<never>[],
  })
  const ws = await t.createWorkspace({ plan: 'growth' })
  return { t, ws }
}

describe('the protect tool without a PDF output', () => {
  let t: TestKernel
  let ws: TestWorkspace
  beforeAll(async () => ({ t, ws } = await kernelWith()))
  afterAll(() => t.close())

  it('answers 503 service_unavailable naming the missing pdf output', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/pdf-tools/protect',
      key: ws.liveKey,
      payload: { source },
    })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toMatchObject({ code: 'service_unavailable' })
    expect(res.json().detail).toContain('output "pdf"')
  })
})

describe('the protect tool with a PDF output of its own options', () => {
  let t: TestKernel
  let ws: TestWorkspace
  beforeAll(async () => ({ t, ws } = await kernelWith(ownProtectPlugin)))
  afterAll(() => t.close())

  it("takes that output's protect fields, in the body schema and the OpenAPI document", async () => {
    const doc = (await t.inject({ method: 'GET', url: '/v1/openapi.json' })).json()
    const body = doc.paths['/v1/pdf-tools/protect'].post.requestBody.content['application/json'].schema
    expect(Object.keys(body.properties)).toContain('secret')
    expect(Object.keys(body.properties)).not.toContain('user_password')
    const res = await t.inject({
      method: 'POST',
      url: '/v1/pdf-tools/protect',
      key: ws.liveKey,
      payload: { source, user_password: 'x' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'validation_error' })
  })
})
