import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { FAKE_RENDER_BUILTINS } from './fake-render-plugins.fixture.ts'

// Email and storage delivery are not built yet: rules or destinations in a request are refused at
// their field, never accepted with files that would never be sent; empty lists pass.
describe('delivery.email and delivery.storage before they exist', () => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace({ plan: 'scale' })
  })
  afterAll(() => t?.close())

  const post = (url: string, payload: object) => t.inject({ method: 'POST', url, key: ws.liveKey, payload })

  it('refuses rules and destinations on the general and a convenience route, naming each field', async () => {
    const delivery = { type: 'url', email: [{ rule_id: 'emr_1' }], storage: [{ destination_id: 'dst_1' }] }
    for (const [url, body] of [
      ['/v1/renders', { input: { type: 'html', html: 'x' }, delivery }],
      ['/v1/pdf/from-html', { html: 'x', delivery }],
    ] as const) {
      const res = await post(url, body)
      expect(res.statusCode, url).toBe(400)
      expect(res.json().code).toBe('validation_error')
      expect(res.json().errors.map((e: { path: string }) => e.path)).toEqual([
        '/delivery/email',
        '/delivery/storage',
      ])
      expect(res.json().errors[0].message).toMatch(/email delivery is not available on this installation yet/)
    }
    const listed = (await t.inject({ method: 'GET', url: '/v1/renders', key: ws.liveKey })).json()
    expect(listed.data).toEqual([])
  })

  it('keeps SPEC 4.2’s 422 for email on a zero-retention render, and takes empty lists', async () => {
    const zero = await post('/v1/pdf/from-html', {
      html: 'x',
      retention_days: 0,
      delivery: { type: 'none', email: [{ rule_id: 'emr_1' }] },
    })
    expect(zero.statusCode).toBe(422)
    expect(zero.json().code).toBe('email_needs_hosted_file')
    const empty = await post('/v1/pdf/from-html', {
      html: 'x',
      delivery: { type: 'url', email: [], storage: [] },
    })
    expect(empty.statusCode).toBe(200)
  })
})
