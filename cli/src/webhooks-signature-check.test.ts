import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { signatureProblem } from './commands/webhooks-signature-check.ts'

// the listen command's check, against signatures made by the standardwebhooks library
describe('webhooks listen: signature check', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`
  const other = `whsec_${randomBytes(24).toString('base64')}`
  const raw = Buffer.from('{"id":"evt_1","type":"render.failed","data":{}}')
  const headers = (signature: string, at = new Date()) => ({
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  })

  it('accepts a signature made with the secret, alone or beside another', () => {
    const now = new Date()
    const mine = new Webhook(secret).sign('evt_1', now, raw)
    const theirs = new Webhook(other).sign('evt_1', now, raw)
    expect(signatureProblem(secret, headers(mine, now), raw)).toBeUndefined()
    expect(signatureProblem(secret, headers(`${theirs} ${mine}`, now), raw)).toBeUndefined()
  })

  it('refuses another secret, a changed body, a stale timestamp and missing headers', () => {
    const now = new Date()
    const theirs = new Webhook(other).sign('evt_1', now, raw)
    expect(signatureProblem(secret, headers(theirs, now), raw)).toMatch(/no v1 signature/)
    const mine = new Webhook(secret).sign('evt_1', now, raw)
    expect(signatureProblem(secret, headers(mine, now), Buffer.from(`${raw} `))).toMatch(/no v1 signature/)
    const old = new Date(Date.now() - 6 * 60_000)
    const stale = new Webhook(secret).sign('evt_1', old, raw)
    expect(signatureProblem(secret, headers(stale, old), raw)).toMatch(/five minutes/)
    expect(signatureProblem(secret, {}, raw)).toMatch(/missing/)
  })
})
