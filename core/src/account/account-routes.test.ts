import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

describe.each(TEST_DIALECTS)('GET /v1/account on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect })
    ws = await t.createWorkspace({ plan: 'growth' })
  })
  afterAll(() => t.close())

  it('returns the plan, usage so far and limits', async () => {
    const res = await t.inject({ method: 'GET', url: '/v1/account', key: ws.liveKey })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.object).toBe('account')
    expect(body.workspace.id).toBe(ws.workspace.id)
    expect(body.plan).toMatchObject({ id: 'growth', name: 'Growth' })
    expect(body.plan.features.pdfua).toBe(true)
    expect(body.limits.test_renders_per_minute).toBe(60)
    expect(body.usage).toMatchObject({ renders: 0, included_renders: 5000, remaining_renders: 5000 })
    expect(body.key.mode).toBe('live')
  })

  it('answers 401 problem+json whose request_id equals X-Request-Id', async () => {
    const res = await t.inject({ method: 'GET', url: '/v1/account' })
    expect(res.statusCode).toBe(401)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    const body = res.json()
    expect(body).toMatchObject({
      status: 401,
      code: 'authentication_required',
      title: 'Authentication required',
    })
    expect(body.request_id).toBe(res.headers['x-request-id'])
    expect(body.type).toMatch(/\/errors\/authentication_required$/)
  })

  it('needs the account:read scope', async () => {
    const { key } = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'test',
      scopes: ['renders:read'],
    })
    const res = await t.inject({ method: 'GET', url: '/v1/account', key })
    expect(res.statusCode).toBe(403)
    expect(res.json().code).toBe('insufficient_scope')
  })
})
