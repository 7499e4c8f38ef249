import { createHmac } from 'node:crypto'
import { signingKey } from './webhook-secrets.ts'

/**
 * The Standard Webhooks headers of one attempt (SPEC 6.4): one `v1,<base64>` entry per active
 * secret, each the HMAC-SHA256 of `{id}.{timestamp}.{body}`.
 */
export function signatureHeaders(
  eventId: string,
  signedAt: Date,
  body: string,
  secrets: readonly string[],
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  const timestamp = String(Math.floor(signedAt.getTime() / 1000))
  const content = `${eventId}.${timestamp}.${body}`
  const signature = secrets
    .map((secret) => `v1,${createHmac('sha256', signingKey(secret)).update(content).digest('base64')}`)
    .join(' ')
  return { 'webhook-id': eventId, 'webhook-timestamp': timestamp, 'webhook-signature': signature }
}
