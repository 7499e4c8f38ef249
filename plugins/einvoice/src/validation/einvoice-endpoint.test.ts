import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { definePlugin, type EinvoiceProfile, einvoiceFilename } from '@docsvc/core/sdk'
import { standardPlugin, startTestKernel, type TestKernel, type TestWorkspace } from '@docsvc/core/testing'
import { Type } from 'typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { einvoiceXmlValidators } from './index.ts'

// POST /v1/einvoices with this folder's validators: the XSD of the syntax and the operator's
// KoSIT daemon (a stand-in on loopback), merged into one report with each finding's source.
// The profile is a stand-in that writes an official sample, so the XSD verdict is the real one.

const SAMPLE = readFileSync(path.join(import.meta.dirname, 'testdata', 'CII_example1.xml'), 'utf8')

describe('POST /v1/einvoices with the XSD and KoSIT validators', () => {
  let daemon: Server
  let daemonMode = 'accept'
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    daemon = createServer(async (req, res) => {
      for await (const _ of req) {
        // the body is read before answering, as the daemon does
      }
      if (daemonMode === 'slow') return
      const accept = daemonMode === 'accept'
      const message = accept
        ? ''
        : '<rep:message id="m1" level="error" code="BR-DE-15" xpathLocation="/rsm:CrossIndustryInvoice[1]">Buyer reference (BT-10) is required.</rep:message>'
      res
        .writeHead(accept ? 200 : 406, { 'content-type': 'application/xml' })
        .end(
          `<rep:report xmlns:rep="http://www.xoev.de/de/validator/varl/1" valid="${accept}"><rep:scenarioMatched><rep:validationStepResult id="s" valid="${accept}">${message}</rep:validationStepResult></rep:scenarioMatched><rep:assessment>${accept ? '<rep:accept/>' : '<rep:reject/>'}</rep:assessment></rep:report>`,
        )
    })
    daemon.listen(0, '127.0.0.1')
    await once(daemon, 'listening')
    const validatorUrl = `http://127.0.0.1:${(daemon.address() as AddressInfo).port}/`
    const validators = einvoiceXmlValidators({ artifactsDir: '', validatorUrl })
    const profile: EinvoiceProfile<{ number: string; break?: boolean }> = {
      id: 'EN16931',
      syntaxes: ['cii'],
      modelSchema: Type.Object({ number: Type.String(), break: Type.Optional(Type.Boolean()) }),
      checkModel: () => [],
      // the sample, or with BT-1 after BT-2 (an element out of order) when asked to break it
      writeXml: (model) =>
        Buffer.from(
          model.break
            ? SAMPLE.replace(/(<ram:ID>[^<]*<\/ram:ID>)(\s*)(<ram:TypeCode>[^<]*<\/ram:TypeCode>)/, '$3$2$1')
            : SAMPLE,
        ),
      xmlValidators: validators,
      filename: (model, requested) => einvoiceFilename(requested, model.number),
    }
    const plugin = definePlugin({
      id: 'sample-einvoice',
      apiVersion: '^1',
      provides: { einvoiceProfiles: ['EN16931'] },
      register({ registries }) {
        registries.einvoiceProfiles.add('EN16931', profile as never)
      },
    })
    t = await startTestKernel({
      builtins: [standardPlugin('queue-sqlite'), plugin] as never,
      roles: ['api', 'worker'],
      env: { DOCSVC_EINVOICE_VALIDATION_TIMEOUT_SECONDS: '2' },
    })
    await t.setPlanLimits('growth', { requests_per_second: 10_000, test_renders_per_minute: 10_000 })
    ws = await t.createWorkspace({ plan: 'growth' })
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    daemon.closeAllConnections()
    daemon.close()
  })

  const post = (invoice: object) =>
    t.inject({
      method: 'POST',
      url: '/v1/einvoices',
      key: ws.liveKey,
      payload: { invoice, profile: 'EN16931' },
    })

  it('reports both verdicts on valid XML', async () => {
    daemonMode = 'accept'
    const res = await post({ number: '471102' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().result.conformance.einvoice).toMatchObject({
      valid: true,
      errors: [],
      source: 'XSD (libxml2 xmllint), KoSIT validator',
    })
  })

  it('fails with the findings of both validators, each with its source', async () => {
    daemonMode = 'reject'
    const res = await post({ number: '471102', break: true })
    expect(res.statusCode).toBe(422)
    expect(res.json().code).toBe('einvoice_validation_failed')
    const errors = res.json().result.conformance.einvoice.errors
    expect(errors).toContainEqual(
      expect.objectContaining({
        ruleId: 'XSD',
        source: 'XSD (libxml2 xmllint)',
        message: expect.stringContaining('ram:TypeCode'),
      }),
    )
    expect(errors).toContainEqual(
      expect.objectContaining({
        ruleId: 'BR-DE-15',
        source: 'KoSIT validator',
        location: '/rsm:CrossIndustryInvoice[1]',
      }),
    )
  })

  it('delivers XSD-checked XML with a warning when the daemon does not answer in time', async () => {
    daemonMode = 'slow'
    const res = await post({ number: '471102' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().warnings).toEqual([
      {
        code: 'einvoice_validation_unavailable',
        message: expect.stringContaining('kosit-validator gave no answer'),
      },
    ])
    expect(res.json().result.conformance.einvoice).toMatchObject({
      valid: true,
      source: 'XSD (libxml2 xmllint)',
    })
  }, 30_000)
})
