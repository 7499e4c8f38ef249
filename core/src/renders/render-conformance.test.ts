import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { FAKE_RENDER_BUILTINS } from './fake-render-plugins.fixture.ts'

// PDF/A and PDF/UA through the render API with the fixture steps and validators
// (fake-render-plugins.fixture.ts): the steps run in order between attachments and protection,
// each requested standard gets its report in result.conformance, a report with errors ends a
// render with its 422 (not billed), a preview never fails on it, and a validator that throws or
// does not answer gives the *_validation_unavailable warning (decision 0109).
describe('conformance of rendered PDFs', () => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({
      builtins: FAKE_RENDER_BUILTINS,
      roles: ['api', 'worker'],
      // the hanging fixture validator is given up on after a second
      env: { DOCSVC_CONFORMANCE_TIMEOUT_SECONDS: '1' },
    })
    ws = await t.createWorkspace({ plan: 'scale' })
    await t.setPlanLimits('scale', { requests_per_second: 1000 })
  })
  afterAll(() => t?.close())

  const render = (html: string, pdf: object, key = ws.liveKey) =>
    t.inject({
      method: 'POST',
      url: '/v1/renders',
      key,
      payload: { input: { type: 'html', html }, output: { format: 'pdf', pdf } },
    })
  const fileText = async (body: { files: { url: string }[] }) => {
    const { pathname, search } = new URL(body.files[0]!.url)
    return (await t.inject({ method: 'GET', url: pathname + search })).body
  }
  const billedCount = async () =>
    Number(
      (
        await t.kernel.db.kysely
          .selectFrom('billed_renders')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('workspace_id', '=', ws.workspace.id)
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('runs the PDF/A step and stores a clean report with its source and rule count', async () => {
    const res = await render('invoice', { pdfa: '3b' })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(await fileText(body)).toContain('[fake-pdfa {"pdfa":"3b"}]')
    expect(body.result.conformance.pdfa).toEqual({
      valid: true,
      profile: 'pdfa-3b',
      source: 'fake-validator 1',
      rules_checked: 3,
      errors: [],
      warnings: [],
    })
    expect(body.result.conformance.pdfua).toBeUndefined()
    expect(body.warnings).toEqual([])
  })

  it('runs PDF/A before PDF/UA, merges each step’s findings into its report', async () => {
    const res = await render('doc fake-pdfua-note:7.1-3', { pdfa: '2b', pdfua: true })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    const text = await fileText(body)
    expect(text.indexOf('[fake-pdfa')).toBeGreaterThan(0)
    expect(text.indexOf('[fake-pdfua')).toBeGreaterThan(text.indexOf('[fake-pdfa'))
    expect(body.result.conformance.pdfa).toMatchObject({ valid: true, profile: 'pdfa-2b' })
    expect(body.result.conformance.pdfua).toEqual({
      valid: true,
      profile: 'pdfua-1',
      source: 'fake-validator 1',
      rules_checked: 3,
      errors: [],
      warnings: [
        { rule_id: '7.1-3', clause: null, page: null, object: null, message: 'fake-pdfua notes 7.1-3' },
      ],
    })
  })

  it('fails a PDF/A render whose report has errors with 422 pdfa_conversion_failed, the report as result, unbilled', async () => {
    const before = await billedCount()
    const res = await render('doc pdfa-violate:6.1.3-1', { pdfa: '2b' })
    expect(res.statusCode).toBe(422)
    const problem = res.json()
    expect(problem.code).toBe('pdfa_conversion_failed')
    expect(problem.detail).toMatch(/PDF\/A-2b.*6\.1\.3-1.*result\.conformance\.pdfa/)
    expect(problem.result.conformance.pdfa).toEqual({
      valid: false,
      profile: 'pdfa-2b',
      source: 'fake-validator 1',
      rules_checked: 3,
      errors: [
        {
          rule_id: '6.1.3-1',
          clause: '6.1.3',
          page: 2,
          object: '4 0 obj PDPage',
          message: 'breaks 6.1.3-1 of pdfa-2b',
        },
      ],
      warnings: [],
    })
    // the stored render says the same
    const stored = await t.inject({ method: 'GET', url: `/v1/renders/${problem.render_id}`, key: ws.liveKey })
    expect(stored.json()).toMatchObject({ status: 'failed', error: { code: 'pdfa_conversion_failed' } })
    expect(stored.json().result.conformance.pdfa.errors[0].rule_id).toBe('6.1.3-1')
    expect(await billedCount()).toBe(before)
  })

  it('fails on an error a step reports even when the validator finds none', async () => {
    const res = await render('doc fake-pdfua-finding:7.18.1-2', { pdfua: true })
    expect(res.statusCode).toBe(422)
    expect(res.json().code).toBe('pdfua_validation_failed')
    expect(res.json().result.conformance.pdfua.errors).toEqual([
      expect.objectContaining({
        rule_id: '7.18.1-2',
        page: 1,
        message: 'fake-pdfua could not meet 7.18.1-2',
      }),
    ])
  })

  it('bills a conforming live render once', async () => {
    const before = await billedCount()
    expect((await render('fine', { pdfua: true })).statusCode).toBe(200)
    expect(await billedCount()).toBe(before + 1)
  })

  it('gives pdfa_validation_unavailable when the validator does not answer in time, and delivers the file', async () => {
    const res = await render('doc pdfa-hang:x', { pdfa: '2b' })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.warnings).toEqual([
      {
        code: 'pdfa_validation_unavailable',
        message: expect.stringMatching(
          /^No PDF\/A-2b report: no answer within 1000 ms; the file is delivered without one\.$/,
        ),
      },
    ])
    expect(body.result.conformance.pdfa).toEqual({
      valid: true,
      profile: 'pdfa-2b',
      source: null,
      rules_checked: 0,
      errors: [],
      warnings: [],
    })
    expect(await fileText(body)).toContain('[fake-pdfa')
  })

  it('treats a validator that throws as not answering (pdfua_validation_unavailable), its words kept out of the answer and the render log', async () => {
    const res = await render('doc pdfua-throw:x', { pdfua: true })
    expect(res.statusCode).toBe(200)
    const [warning] = res.json().warnings
    expect(warning).toEqual({
      code: 'pdfua_validation_unavailable',
      message: expect.stringMatching(/^No PDF\/UA-1 report: the validator failed; /),
    })
    expect(warning.message).not.toMatch(/fake validator broke/)
    const logs = await t.kernel.db.kysely
      .selectFrom('render_logs')
      .select('message')
      .where('render_id', '=', res.json().id)
      .execute()
    // the render's log (which its client reads) names the validator, not what it said
    const messages = logs.map((l) => l.message)
    expect(messages).toContain('validator fake-pdfua-validator (pdfua-1): the validator failed')
    expect(messages.join('\n')).not.toMatch(/fake validator broke/)
  })

  it('reports on a tagged PDF without pdfua, never failing on it', async () => {
    const res = await render('doc pdfua-violate:7.1-8', { tagged: true })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.result.conformance.pdfua).toMatchObject({ valid: false, profile: 'pdfua-1' })
    expect(body.result.conformance.pdfua.errors[0].rule_id).toBe('7.1-8')
    // no PDF/UA step ran: tagging is the output's
    expect(await fileText(body)).not.toContain('[fake-pdfua')
    const hung = await render('doc pdfua-hang:x', { tagged: true })
    expect(hung.json().warnings.map((w: { code: string }) => w.code)).toEqual([
      'accessibility_validation_unavailable',
    ])
  })

  it('reports on a PDF an outline makes tagged, and not on one with tagged: false', async () => {
    const res = await render('doc pdfua-violate:7.1-8', { outline: true })
    expect(res.statusCode).toBe(200)
    expect(res.json().result.conformance.pdfua).toMatchObject({ valid: false, profile: 'pdfua-1' })
    const untagged = await render('doc pdfua-violate:7.1-8', { outline: true, tagged: false })
    expect(untagged.statusCode).toBe(200)
    expect(untagged.json().result?.conformance?.pdfua).toBeUndefined()
  })

  it('refuses PDF/A with protect (400 at protect)', async () => {
    const res = await render('x', { pdfa: '2b', protect: { owner_password: 'owner-secret-1' } })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors).toContainEqual(
      expect.objectContaining({ path: '/output/pdf/protect', code: 'conflict' }),
    )
  })

  it('lets a PDF preview carry the failing report without failing', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/previews/pdf',
      key: ws.testKey,
      payload: {
        template_type: 'pdf_code',
        content: { html: 'card pdfua-violate:7.1-8' },
        output: { pdf: { pdfua: true, pdfa: '2b' } },
      },
    })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.result.conformance.pdfua).toMatchObject({ valid: false, profile: 'pdfua-1' })
    expect(body.result.conformance.pdfua.errors[0].rule_id).toBe('7.1-8')
    expect(body.result.conformance.pdfa).toMatchObject({ valid: true, profile: 'pdfa-2b' })
    const text = await fileText(body)
    expect(text).toContain('[fake-pdfua')
    expect(text).toContain('TEST')
  })
})

describe('conformance options without the steps installed', () => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({
      builtins: FAKE_RENDER_BUILTINS.filter((p) => p.id !== 'fake-conformance'),
      roles: ['api', 'worker'],
    })
    ws = await t.createWorkspace({ plan: 'scale' })
  })
  afterAll(() => t?.close())

  it('refuses pdfa and pdfua at their fields (400), never accepting and ignoring them', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.testKey,
      payload: {
        input: { type: 'html', html: 'x' },
        output: { format: 'pdf', pdf: { pdfa: '2b', pdfua: true } },
      },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors).toEqual([
      expect.objectContaining({ path: '/output/pdf/pdfa', code: 'unavailable' }),
      expect.objectContaining({ path: '/output/pdf/pdfua', code: 'unavailable' }),
    ])
    expect(res.json().errors[0].message).toMatch(/PDF\/A output is not available on this installation/)
  })

  it('delivers a tagged PDF with accessibility_validation_unavailable when no validator is installed', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.testKey,
      payload: { input: { type: 'html', html: 'x' }, output: { format: 'pdf', pdf: { tagged: true } } },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().warnings).toEqual([
      {
        code: 'accessibility_validation_unavailable',
        message:
          'No PDF/UA-1 report: no validator for pdfua-1 is installed; the file is delivered without one.',
      },
    ])
  })
})
