import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'
import { assertTemplateAllowed } from './template-allowlist.ts'

// The real template routes arrive with the templates issue; a probe route that names a template
// exercises the same check through HTTP.
async function probeRoutes(app: FastifyInstance) {
  app.get<{ Params: { id: string } }>(
    '/test-templates/:id',
    { config: { scope: 'templates:read' } },
    async (request) => {
      assertTemplateAllowed(request.auth!, request.params.id)
      return { id: request.params.id }
    },
  )
}

describe.each(TEST_DIALECTS)('template allowlist on %s', (dialect) => {
  let t: TestKernel
  let workspaceId: string

  beforeAll(async () => {
    t = await startTestKernel({ dialect, extraV1Routes: [probeRoutes] })
    workspaceId = (await t.createWorkspace()).workspace.id
  })
  afterAll(() => t.close())

  it('lets a key use only the templates on its list', async () => {
    const { key } = await t.createKey({ workspaceId, mode: 'live', templateAllowlist: ['tpl_a', 'tpl_b'] })
    expect((await t.inject({ method: 'GET', url: '/v1/test-templates/tpl_a', key })).statusCode).toBe(200)
    const refused = await t.inject({ method: 'GET', url: '/v1/test-templates/tpl_c', key })
    expect(refused.statusCode).toBe(403)
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(refused.json()).toMatchObject({ code: 'template_not_allowed_for_key', status: 403 })
    expect(refused.json().detail).toContain('tpl_c')
  })

  it('lets a key without a list use any template', async () => {
    const { key } = await t.createKey({ workspaceId, mode: 'test' })
    expect((await t.inject({ method: 'GET', url: '/v1/test-templates/tpl_zzz', key })).statusCode).toBe(200)
  })
})
