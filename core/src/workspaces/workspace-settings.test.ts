import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProblemError } from '../kernel/problem-error.ts'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { recordedEvents, startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'
import { requireEmailDelivery } from './email-delivery.ts'

const TOKEN = 'operator-secret-token-0123456789abcdef'

describe.each(TEST_DIALECTS)('workspace settings on %s', (dialect) => {
  let t: TestKernel
  const admin = (method: 'GET' | 'PATCH', url: string, payload?: object) =>
    t.inject({ method, url, headers: { authorization: `Bearer ${TOKEN}` }, ...(payload ? { payload } : {}) })
  const render = (key: string, body: object = {}) =>
    t.inject({
      method: 'POST',
      url: '/v1/renders',
      key,
      payload: { input: { type: 'html', html: 'x' }, ...body },
    })

  beforeAll(async () => {
    t = await startTestKernel({
      dialect,
      builtins: FAKE_RENDER_BUILTINS,
      roles: ['api', 'worker'],
      env: { DOCSVC_OPERATOR_TOKEN: TOKEN },
    })
  })
  afterAll(() => t.close())

  it('reads the defaults, changes the named settings only, and refuses bad input', async () => {
    const ws = await t.createWorkspace()
    const url = `/admin/v1/workspaces/${ws.workspace.id}/settings`
    expect((await admin('GET', url)).json()).toEqual({
      allow_live_drafts: false,
      file_urls_in_webhooks: true,
      email_request_logging: true,
      zero_retention_default: false,
      email_enabled: true,
    })
    const changed = await admin('PATCH', url, { allow_live_drafts: true, email_enabled: false })
    expect(changed.statusCode).toBe(200)
    expect(changed.json()).toMatchObject({
      allow_live_drafts: true,
      email_enabled: false,
      file_urls_in_webhooks: true,
    })
    expect((await admin('GET', url)).json()).toMatchObject({ allow_live_drafts: true, email_enabled: false })

    for (const [body, path] of [
      [{ allow_live_drafts: 'yes' }, '/allow_live_drafts'],
      [{ retention: true }, '/retention'],
    ] as const) {
      const res = await admin('PATCH', url, body)
      expect(res.statusCode).toBe(400)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(res.json().code).toBe('validation_error')
      expect(res.json().errors).toContainEqual(expect.objectContaining({ path }))
    }
    const empty = await admin('PATCH', url, {})
    expect(empty.statusCode).toBe(400)
    expect(empty.json().code).toBe('validation_error')
    const unknown = await admin('GET', '/admin/v1/workspaces/ws_00000000000000000000/settings')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().code).toBe('not_found')
    expect((await t.inject({ method: 'GET', url, key: ws.liveKey })).statusCode).toBe(401)
  })

  it('email delivery: on for new workspaces; off means 403 feature_not_enabled from the one check', async () => {
    const ws = await t.createWorkspace()
    const { workspaceService } = t.kernel.container.cradle
    expect(() => requireEmailDelivery(ws.workspace)).not.toThrow()
    await admin('PATCH', `/admin/v1/workspaces/${ws.workspace.id}/settings`, { email_enabled: false })
    const off = await workspaceService.get(ws.workspace.id)
    let thrown: unknown
    try {
      requireEmailDelivery(off)
    } catch (err) {
      thrown = err
    }
    expect(thrown).toBeInstanceOf(ProblemError)
    expect(thrown).toMatchObject({
      code: 'feature_not_enabled',
      detail: expect.stringContaining(`Email delivery is not enabled for workspace ${ws.workspace.id}`),
    })
  })

  it('allow_live_drafts set through the API lets live keys render drafts (else 403 test_key_required)', async () => {
    const ws = await t.createWorkspace({ plan: 'growth' })
    const template = await t.inject({
      method: 'POST',
      url: '/v1/templates',
      key: ws.liveKey,
      payload: { type: 'pdf_code', name: 'd', html: 'draft' },
    })
    const draft = { input: { type: 'template', template_id: template.json().id, version: 'draft' } }
    const refused = await render(ws.liveKey, draft)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('test_key_required')
    await admin('PATCH', `/admin/v1/workspaces/${ws.workspace.id}/settings`, { allow_live_drafts: true })
    expect((await render(ws.liveKey, draft)).statusCode).toBe(200)
  })

  it('zero_retention_default: renders that name no retention_days keep no files', async () => {
    const ws = await t.createWorkspace()
    await admin('PATCH', `/admin/v1/workspaces/${ws.workspace.id}/settings`, { zero_retention_default: true })
    const zero = await render(ws.liveKey)
    expect(zero.statusCode).toBe(200)
    expect(zero.json()).toMatchObject({ status: 'succeeded', files_expire_at: null })
    expect(zero.json().files[0].url).toBeUndefined()
    const kept = await render(ws.liveKey, { retention_days: 3 })
    expect(kept.json().files[0].url).toEqual(expect.stringContaining('/files/'))
    expect(kept.json().files_expire_at).not.toBeNull()
  })

  it('file_urls_in_webhooks off: the event lists the files without links; the response keeps them', async () => {
    const ws = await t.createWorkspace()
    await admin('PATCH', `/admin/v1/workspaces/${ws.workspace.id}/settings`, { file_urls_in_webhooks: false })
    const res = await render(ws.liveKey)
    expect(res.json().files[0].url).toEqual(expect.stringContaining('/files/'))
    const events = await recordedEvents(t.kernel)
    const event = events.find(
      (e) =>
        e.type === 'render.succeeded' && (e.data as { object: { id: string } }).object.id === res.json().id,
    )
    expect(event).toBeDefined()
    const files = (event!.data as { object: { files: Record<string, unknown>[] } }).object.files
    expect(files).toEqual([expect.objectContaining({ id: res.json().files[0].id, format: 'pdf' })])
    expect(files[0]).not.toHaveProperty('url')
    expect(files[0]).not.toHaveProperty('expires_at')
  })
})
