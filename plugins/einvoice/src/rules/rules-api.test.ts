import { startTestKernel, type TestKernel, type TestWorkspace } from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLE_INVOICE } from '../sample-invoice.ts'

// The business rules as a client meets them: POST /v1/einvoices refuses an invoice that breaks
// one with 422 einvoice_invalid, each error naming the rule and the field.

let kernel: TestKernel | undefined
let workspace: TestWorkspace

beforeAll(async () => {
  kernel = await startTestKernel({ roles: ['api', 'worker'] })
  workspace = await kernel.createWorkspace({ plan: 'growth' })
}, 60_000)
afterAll(() => kernel?.close())

/** three requests in all: the plan's rate limit is not in the way */
function post(payload: object) {
  return kernel!.inject({ method: 'POST', url: '/v1/einvoices', key: workspace.liveKey, payload })
}
const line = SAMPLE_INVOICE.lines![0]!

/** 422 einvoice_invalid with an error naming the rule and the field */
async function expectRefused(payload: object, rule: string, path: string) {
  const res = await post(payload)
  expect(res.statusCode, res.body.slice(0, 600)).toBe(422)
  expect(res.json()).toMatchObject({ code: 'einvoice_invalid' })
  expect(res.json().errors).toContainEqual(expect.objectContaining({ path, code: rule }))
}

describe('POST /v1/einvoices and the EN 16931 business rules', () => {
  it('refuses a standard rated line at 0 % with BR-S-05 at the line’s rate', async () => {
    const invoice = { ...SAMPLE_INVOICE, lines: [{ ...line, vat_rate: '0' }] }
    await expectRefused({ profile: 'EN16931', invoice }, 'BR-S-05', '/invoice/lines/0/vat_rate')
  })

  it('refuses an XRechnung whose type code XRechnung does not allow (BR-DE-17), not so EN16931', async () => {
    const invoice = { ...SAMPLE_INVOICE, type_code: '71' }
    await expectRefused({ profile: 'XRECHNUNG', invoice }, 'BR-DE-17', '/invoice/type_code')
    const en16931 = await post({ profile: 'EN16931', invoice })
    expect(en16931.statusCode, en16931.body.slice(0, 600)).toBe(200)
  })
})
