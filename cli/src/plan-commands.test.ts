import { createKernel, loadConfig } from '@docsvc/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliDatabase, cliDatabase, cliJson, runCli } from './cli-test-support.ts'

type PlanJson = {
  id: string
  name: string
  features: Record<string, boolean>
  limits: Record<string, number>
}

describe('plan commands', () => {
  let db: CliDatabase
  beforeAll(async () => {
    db = await cliDatabase('sqlite')
  })
  afterAll(() => db?.cleanup())

  it('lists the plans and edits one; the API serves the edited limits', async () => {
    const env = db.env
    const [plans, listText, tables, ws] = await Promise.all([
      cliJson<PlanJson[]>(['plan', 'list'], env),
      runCli(['plan', 'list'], env),
      runCli(['plan', 'list', '--markdown'], env),
      cliJson(['workspace', 'create', '--name', 'Planned', '--plan', 'starter'], env),
    ])
    expect(plans.map((p) => p.id)).toEqual(['free', 'starter', 'growth', 'pro', 'scale'])
    expect(plans[1]).toMatchObject({ name: 'Starter', features: { email: false } })
    expect(listText.stdout).toMatch(/^starter\s+Starter$/m)
    // the tables of docs/plans.md, from this installation's plan data
    expect(tables.stdout).toContain('| Email delivery (`email`) | no | no | yes | yes | yes |')
    expect(tables.stdout).toContain('| `max_pages` | 50 | 200 | 500 | 2,000 | 5,000 |')

    const [edited, key, unknownFeature, badValues, unknownPlan, nothing, badShape] = await Promise.all([
      cliJson<PlanJson>(
        [
          'plan',
          'set',
          'starter',
          '--name',
          'Starter Plus',
          '--feature',
          'email=true',
          '--feature',
          'einvoice=true',
          '--feature',
          'pdfa=true',
          '--limit',
          'requests_per_second=8',
          '--limit',
          'max_pages=250',
        ],
        env,
      ),
      cliJson<{ key: string }>(['key', 'create', '--workspace', ws.id as string, '--mode', 'test'], env),
      runCli(['plan', 'set', 'starter', '--feature', 'teleport=true', '--json'], env),
      runCli(['plan', 'set', 'starter', '--feature', 'email=maybe', '--limit', 'max_pages=lots'], env),
      runCli(['plan', 'set', 'platinum', '--limit', 'max_pages=10'], env),
      runCli(['plan', 'set', 'starter'], env),
      runCli(['plan', 'set', 'starter', '--limit', 'max_pages'], env),
    ])
    expect(edited).toMatchObject({
      id: 'starter',
      name: 'Starter Plus',
      features: { email: true, einvoice: true, pdfa: true, pdfua: false },
      limits: { requests_per_second: 8, max_pages: 250, retention_days: 7 },
    })
    expect(unknownFeature.code).toBe(1)
    const error = JSON.parse(unknownFeature.stdout).error
    expect(error.code).toBe('validation_error')
    expect(error.message).toMatch(/unknown feature teleport; features: pdfa, pdfua/)
    expect(error.errors[0]).toMatchObject({ path: '/features/teleport', code: 'unknown_key' })
    expect(badValues.code).toBe(1)
    expect(badValues.stderr).toMatch(/feature email must be true or false, not "maybe"/)
    expect(badValues.stderr).toMatch(/limit max_pages must be a whole number of at least 1, not "lots"/)
    expect(unknownPlan.code).toBe(1)
    expect(unknownPlan.stderr).toMatch(/plan platinum does not exist; plans: free, starter/)
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toMatch(/nothing to change/)
    expect(badShape.code).toBe(1)
    expect(badShape.stderr).toMatch(/--limit max_pages: expected key=value/)

    const kernelEnv = { ...env, DOCSVC_LOG_LEVEL: 'silent' }
    const kernel = await createKernel({ config: loadConfig(kernelEnv), env: kernelEnv, roles: ['api'] })
    try {
      const res = await kernel.app.inject({
        method: 'GET',
        url: '/v1/account',
        headers: { authorization: `Bearer ${key.key}` },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({
        plan: { id: 'starter', name: 'Starter Plus', features: { email: true } },
        limits: { requests_per_second: 8, max_pages: 250 },
      })
      // the plan gate reads the edited plan: PDF/A is in now, PDF/UA still needs Growth
      const pdf = (options: object) =>
        kernel.app.inject({
          method: 'POST',
          url: '/v1/pdf/from-html',
          headers: { authorization: `Bearer ${key.key}` },
          payload: { html: 'x', mode: 'async', pdf: options },
        })
      const [pdfa, pdfua] = await Promise.all([pdf({ pdfa: '2b' }), pdf({ pdfua: true })])
      expect(pdfa.statusCode).toBe(202)
      expect(pdfua.statusCode).toBe(402)
      expect(pdfua.json()).toMatchObject({ code: 'plan_feature_unavailable', required_plan: 'growth' })
    } finally {
      await kernel.close()
    }
  }, 60_000)
})
