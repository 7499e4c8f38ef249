import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { fixtureEinvoicePlugin, VALID_INVOICE, validatorCalls } from './einvoice-profiles.fixture.ts'

// POST /v1/einvoices (SPEC 4.3) over stand-in profiles: what a client sees for each outcome,
// from the request checks to the billed XML render.
describe('POST /v1/einvoices', () => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({
      builtins: [...FAKE_RENDER_BUILTINS, fixtureEinvoicePlugin],
      roles: ['api', 'worker'],
      env: { DOCSVC_EINVOICE_VALIDATION_TIMEOUT_SECONDS: '1' },
    })
    // the suite sends many requests in a second; the rate limits are not what it tests
    for (const plan of ['growth', 'starter'])
      await t.setPlanLimits(plan, { requests_per_second: 10_000, test_renders_per_minute: 10_000 })
    ws = await t.createWorkspace({ plan: 'growth' })
  }, 60_000)
  afterAll(() => t?.close())

  const post = (payload: object, key = ws.liveKey) =>
    t.inject({ method: 'POST', url: '/v1/einvoices', key, payload })
  const rendersUsed = async () =>
    (await t.inject({ method: 'GET', url: '/v1/account', key: ws.liveKey })).json().usage.renders as number
  const withNote = (note: string) => ({ ...VALID_INVOICE, note })

  it('answers one billed einvoice render with one application/xml file and its report', async () => {
    const before = await rendersUsed()
    const res = await post({ invoice: VALID_INVOICE, profile: 'EN16931' })
    expect(res.statusCode, res.body).toBe(200)
    const render = res.json()
    expect(render).toMatchObject({
      status: 'succeeded',
      input_type: 'einvoice',
      kind: 'einvoice_xml',
      test: false,
    })
    expect(render.warnings).toEqual([])
    expect(render.files).toHaveLength(1)
    expect(render.files[0]).toMatchObject({
      format: 'xml',
      content_type: 'application/xml',
      filename: 'RE_2026_42.xml',
    })
    expect(render.result.conformance.einvoice).toEqual({
      valid: true,
      errors: [],
      warnings: [],
      profile: 'EN16931',
      syntax: 'cii',
      source: 'fixture validator 1.0',
    })
    const file = await t.inject({
      method: 'GET',
      url: `/v1/renders/${render.id}/files/${render.files[0].id}?inline=true`,
      key: ws.liveKey,
    })
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toContain('application/xml')
    expect(file.body).toContain('<CrossIndustryInvoice profile="EN16931"><ID>RE 2026/42</ID>')
    expect(file.body).not.toContain('TEST')
    // the validators read the XML that was delivered
    expect(validatorCalls.at(-1)?.xml).toBe(file.body)
    expect(await rendersUsed()).toBe(before + 1)
  })

  it('writes UBL when asked, and names the file as the request says with .xml enforced', async () => {
    const res = await post({
      invoice: VALID_INVOICE,
      profile: 'EN16931',
      syntax: 'ubl',
      filename: 'march invoice.pdf',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().files[0].filename).toBe('march_invoice.pdf.xml')
    expect(res.json().result.conformance.einvoice.syntax).toBe('ubl')
    expect(validatorCalls.at(-1)?.xml).toContain('<Invoice profile="EN16931">')
  })

  it('answers the XML itself with delivery binary', async () => {
    const res = await post({ invoice: VALID_INVOICE, profile: 'EN16931', delivery: 'binary' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toContain('application/xml')
    expect(res.headers['content-disposition']).toContain('RE_2026_42.xml')
    expect(res.body).toBe(validatorCalls.at(-1)?.xml)
  })

  it('refuses a profile this installation lacks and a syntax the profile does not write, naming the allowed values', async () => {
    const unknown = await post({ invoice: VALID_INVOICE, profile: 'XRECHNUNG' })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().errors).toEqual([
      { path: '/profile', code: 'enum', message: 'must be one of: BASIC, EN16931, MINIMUM' },
    ])
    const ubl = await post({ invoice: VALID_INVOICE, profile: 'MINIMUM', syntax: 'ubl' })
    expect(ubl.statusCode).toBe(400)
    expect(ubl.json().errors).toEqual([
      {
        path: '/syntax',
        code: 'enum',
        message: 'profile MINIMUM is written in cii only: must be one of: cii',
      },
    ])
    const bad = await post({ invoice: VALID_INVOICE, profile: 'EN16931', syntax: 'xml' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].path).toBe('/syntax')
    expect(bad.json()).not.toHaveProperty('render_id')
  })

  it('points at the model field that does not fit the profile schema, before any render', async () => {
    const res = await post({ invoice: { ...VALID_INVOICE, lines: [{ amount: '10' }] }, profile: 'EN16931' })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('validation_error')
    expect(res.json().errors).toContainEqual(expect.objectContaining({ path: '/invoice/lines/0/amount' }))
    const missing = await post({ profile: 'EN16931' })
    expect(missing.json().errors).toContainEqual(expect.objectContaining({ path: '/invoice' }))
  })

  it('fails a model that breaks a business rule with einvoice_invalid and the report, unbilled', async () => {
    const before = await rendersUsed()
    const res = await post({ invoice: { ...VALID_INVOICE, total: '31.00' }, profile: 'EN16931' })
    expect(res.statusCode).toBe(422)
    const body = res.json()
    expect(body.code).toBe('einvoice_invalid')
    expect(body.render_id).toMatch(/^rnd_/)
    expect(body.errors).toEqual([
      { path: '/invoice/total', code: 'BR-CO-15', message: 'total is not the sum of the lines' },
    ])
    expect(body.result.conformance.einvoice).toMatchObject({
      valid: false,
      errors: [{ ruleId: 'BR-CO-15', severity: 'error', location: '/invoice/total' }],
    })
    const stored = await t.inject({ method: 'GET', url: `/v1/renders/${body.render_id}`, key: ws.liveKey })
    expect(stored.json()).toMatchObject({ status: 'failed', error: { code: 'einvoice_invalid' }, files: [] })
    expect(stored.json().result.conformance.einvoice.valid).toBe(false)
    expect(await rendersUsed()).toBe(before)
  })

  it('fails XML a validator rejects with einvoice_validation_failed, the finding with its source, unbilled', async () => {
    const before = await rendersUsed()
    const res = await post({ invoice: withNote('xml-error'), profile: 'EN16931' })
    expect(res.statusCode).toBe(422)
    expect(res.json().code).toBe('einvoice_validation_failed')
    expect(res.json().detail).toContain('FX-01 at /Invoice/Note')
    expect(res.json().result.conformance.einvoice).toMatchObject({
      valid: false,
      errors: [{ ruleId: 'FX-01', location: '/Invoice/Note', source: 'fixture validator 1.0' }],
    })
    expect(await rendersUsed()).toBe(before)
  })

  it('delivers XML with validator warnings, saying so', async () => {
    const res = await post({ invoice: withNote('xml-warning'), profile: 'EN16931' })
    expect(res.statusCode).toBe(200)
    expect(res.json().warnings.map((w: { code: string }) => w.code)).toEqual(['einvoice_validation_warning'])
    expect(res.json().result.conformance.einvoice.warnings).toEqual([
      expect.objectContaining({ ruleId: 'FX-02', source: 'fixture validator 1.0' }),
    ])
  })

  it('never calls XML valid when a validator is too slow, fails, or missing', async () => {
    for (const [payload, reason] of [
      [{ invoice: withNote('slow'), profile: 'EN16931' }, 'gave no answer within 1 s'],
      [{ invoice: withNote('crash'), profile: 'EN16931' }, 'failed (validator crashed)'],
      [{ invoice: VALID_INVOICE, profile: 'BASIC' }, 'no validator checks cii XML'],
    ] as const) {
      const res = await post(payload)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().warnings).toEqual([
        { code: 'einvoice_validation_unavailable', message: expect.stringContaining(reason) },
      ])
      expect(res.json().result.conformance.einvoice.unavailable).toEqual([
        expect.objectContaining({ reason: expect.stringContaining(reason) }),
      ])
    }
  }, 30_000)

  it('makes free test renders whose XML carries the TEST note', async () => {
    const before = await rendersUsed()
    const res = await post({ invoice: VALID_INVOICE, profile: 'EN16931' }, ws.testKey)
    expect(res.statusCode).toBe(200)
    expect(res.json().test).toBe(true)
    expect(validatorCalls.at(-1)?.xml).toContain('<Note>TEST</Note>')
    expect(await rendersUsed()).toBe(before)
  })

  it('answers 202 in async mode and finishes the render', async () => {
    const res = await post({ invoice: VALID_INVOICE, profile: 'EN16931', mode: 'async' })
    expect(res.statusCode).toBe(202)
    expect(res.headers.location).toBe(`/v1/renders/${res.json().id}`)
    let render = res.json()
    while (render.status === 'queued' || render.status === 'processing') {
      await new Promise((resolve) => setTimeout(resolve, 50))
      render = (
        await t.inject({ method: 'GET', url: res.headers.location as string, key: ws.liveKey })
      ).json()
    }
    expect(render).toMatchObject({ status: 'succeeded', kind: 'einvoice_xml', files: [{ format: 'xml' }] })
    const listed = await t.inject({
      method: 'GET',
      url: '/v1/renders?input_type=einvoice&limit=100',
      key: ws.liveKey,
    })
    expect(listed.statusCode, listed.body).toBe(200)
    expect(listed.json().data.map((r: { id: string }) => r.id)).toContain(render.id)
    expect(listed.json().data.every((r: { input_type: string }) => r.input_type === 'einvoice')).toBe(true)
  })

  it('refuses plans without e-invoicing with 402 plan_feature_unavailable', async () => {
    const starter = await t.createWorkspace({ plan: 'starter' })
    const res = await post({ invoice: VALID_INVOICE, profile: 'EN16931' }, starter.liveKey)
    expect(res.statusCode).toBe(402)
    expect(res.json()).toMatchObject({
      code: 'plan_feature_unavailable',
      feature: 'einvoice',
      required_plan: 'growth',
    })
  })
})
