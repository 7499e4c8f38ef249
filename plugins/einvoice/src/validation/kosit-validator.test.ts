import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { einvoiceXmlValidators } from './index.ts'
import { kositValidator } from './kosit-validator.ts'

// The KoSIT validator cannot be installed here: a stand-in daemon on loopback answers as its
// documentation says (a POST with the XML as body; 200 acceptable, 406 not, with a report in
// the varl/1 format), and misbehaves on request (slow, 500, no scenario).

const INVOICE = Buffer.from(
  '<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
)

function report(options: { accept: boolean; messages?: string; noScenario?: boolean }): string {
  const steps = `<rep:validationStepResult id="val-sch.1" valid="${options.accept}">${options.messages ?? ''}</rep:validationStepResult>`
  const scenario = options.noScenario
    ? '<rep:noScenarioMatched/>'
    : `<rep:scenarioMatched><s:scenario><s:name>XRechnung UBL Invoice</s:name></s:scenario>${steps}</rep:scenarioMatched>`
  return `<?xml version="1.0" encoding="UTF-8"?>
<rep:report xmlns:rep="http://www.xoev.de/de/validator/varl/1" xmlns:s="http://www.xoev.de/de/validator/framework/1/scenarios" varlVersion="1.0.0" valid="${options.accept}">
  <rep:engine><rep:name>KoSIT Validator 1.5.0</rep:name></rep:engine>
  <rep:timestamp>2026-03-01T10:00:00Z</rep:timestamp>
  <rep:documentIdentification><rep:documentHash><rep:hashAlgorithm>SHA-256</rep:hashAlgorithm><rep:hashValue>AA==</rep:hashValue></rep:documentHash><rep:documentReference>invoice.xml</rep:documentReference></rep:documentIdentification>
  ${scenario}
  <rep:assessment>${options.accept ? '<rep:accept/>' : '<rep:reject/>'}</rep:assessment>
</rep:report>`
}

const MESSAGES = `
  <rep:message id="val-sch.1.1" level="error" code="BR-DE-15" xpathLocation="/Invoice[1]" lineNumber="1" columnNumber="80">[BR-DE-15] Das Element &quot;Buyer reference&quot; (BT-10) muss übermittelt werden.</rep:message>
  <rep:message id="val-sch.1.2" level="warning" code="PEPPOL-EN16931-R008" xpathLocation="/Invoice[1]/cac:InvoiceLine[1]">Document MUST not contain empty elements.</rep:message>
  <rep:message id="val-sch.1.3" level="information" code="INFO-1">Checked with XRechnung 3.0.2</rep:message>`

describe('the KoSIT validator daemon', () => {
  let server: Server
  let base: string
  const received: { path: string; type: string | undefined; body: string }[] = []

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      received.push({
        path: req.url ?? '',
        type: req.headers['content-type'],
        body: Buffer.concat(chunks).toString(),
      })
      const answer = (status: number, body: string) =>
        res.writeHead(status, { 'content-type': 'application/xml' }).end(body)
      if (req.method !== 'POST') return answer(405, '')
      switch (req.url) {
        case '/valid':
          return answer(200, report({ accept: true }))
        case '/invalid':
          return answer(406, report({ accept: false, messages: MESSAGES }))
        case '/warnings':
          return answer(
            200,
            report({ accept: true, messages: MESSAGES.replace('level="error"', 'level="warning"') }),
          )
        case '/no-scenario':
          return answer(406, report({ accept: false, noScenario: true }))
        case '/slow':
          return // never answers; the client's time limit ends it
        case '/redirect':
          return res.writeHead(302, { location: `${base}/valid` }).end()
        default:
          return answer(500, 'java.lang.NullPointerException')
      }
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => {
    server.closeAllConnections()
    server.close()
  })

  const validate = (path: string, timeoutMs?: number) =>
    kositValidator({ url: `${base}${path}`, ...(timeoutMs ? { timeoutMs } : {}) }).validate(INVOICE, {
      syntax: 'ubl',
      signal: AbortSignal.timeout(30_000),
    })

  it('sends the XML as the POST body and takes an accepting report as valid', async () => {
    expect(await validate('/valid')).toEqual({
      valid: true,
      errors: [],
      warnings: [],
      source: 'KoSIT validator',
    })
    expect(received.at(-1)).toEqual({ path: '/valid', type: 'application/xml', body: INVOICE.toString() })
  })

  it('reads a rejecting report into findings with rule id, XPath and message', async () => {
    const report = await validate('/invalid')
    expect(report.valid).toBe(false)
    expect(report.source).toBe('KoSIT validator')
    expect(report.errors).toEqual([
      {
        ruleId: 'BR-DE-15',
        severity: 'error',
        message: '[BR-DE-15] Das Element "Buyer reference" (BT-10) muss übermittelt werden.',
        location: '/Invoice[1]',
      },
    ])
    expect(report.warnings).toEqual([
      expect.objectContaining({ ruleId: 'PEPPOL-EN16931-R008', location: '/Invoice[1]/cac:InvoiceLine[1]' }),
    ])
  })

  it('keeps warnings of an accepting report as warnings', async () => {
    const report = await validate('/warnings')
    expect(report.valid).toBe(true)
    expect(report.warnings.map((w) => w.ruleId)).toEqual(['BR-DE-15', 'PEPPOL-EN16931-R008'])
  })

  it('gives no verdict when the daemon fails, is too slow, has no scenario, or redirects', async () => {
    await expect(validate('/crash')).rejects.toThrow('the KoSIT validator answered HTTP 500')
    await expect(validate('/no-scenario')).rejects.toThrow(/no scenario/)
    await expect(validate('/slow', 300)).rejects.toThrow()
    await expect(validate('/redirect')).rejects.toThrow()
  })

  it('is listed beside the XSD validators only when the operator configured it', () => {
    expect(einvoiceXmlValidators({ artifactsDir: '', validatorUrl: '' }).map((v) => v.id)).toEqual([
      'xsd-cii',
      'xsd-ubl',
    ])
    expect(einvoiceXmlValidators({ artifactsDir: '', validatorUrl: `${base}/` }).map((v) => v.id)).toEqual([
      'xsd-cii',
      'xsd-ubl',
      'kosit-validator',
    ])
    expect(() => kositValidator({ url: 'file:///etc/passwd' })).toThrow(/must be http or https/)
  })
})
