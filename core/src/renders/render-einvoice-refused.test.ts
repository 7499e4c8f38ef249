import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { FAKE_RENDER_BUILTINS } from './fake-render-plugins.fixture.ts'

// An installation without e-invoicing (no profile, no embed step: the fake plugins) refuses an
// invoice in a render request at its field, never accepting it and leaving it out of the PDF;
// null (SPEC: disables a template's default) passes. The built feature: plugins/einvoice.
describe('einvoice on an installation without e-invoicing', () => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace({ plan: 'scale' })
  })
  afterAll(() => t?.close())

  const post = (url: string, payload: object) => t.inject({ method: 'POST', url, key: ws.testKey, payload })
  const INVOICE = { profile: 'XRECHNUNG', invoice: { number: 'R-1' } }

  it('refuses an invoice on the general route and the convenience routes, naming the field', async () => {
    for (const [url, body, path] of [
      [
        '/v1/renders',
        { input: { type: 'html', html: 'x' }, output: { format: 'pdf', einvoice: INVOICE } },
        '/output/einvoice',
      ],
      ['/v1/pdf/from-html', { html: 'x', einvoice: INVOICE }, '/einvoice'],
    ] as const) {
      const res = await post(url, body)
      expect(res.statusCode, url).toBe(400)
      expect(res.json().code).toBe('validation_error')
      expect(res.json().errors).toContainEqual(expect.objectContaining({ path, code: 'unavailable' }))
    }
  })

  it('takes null, as a request without an invoice', async () => {
    const res = await post('/v1/pdf/from-html', { html: 'x', einvoice: null })
    expect(res.statusCode).toBe(200)
  })
})
