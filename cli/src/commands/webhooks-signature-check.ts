import { createHmac, timingSafeEqual } from 'node:crypto'

const TOLERANCE_SECONDS = 5 * 60

/**
 * What a receiver should do with a delivery (SPEC 6.4): the raw bytes, a timestamp within five
 * minutes, any `v1,` entry matching in constant time. Returns why it fails, or undefined.
 */
export function signatureProblem(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  raw: Buffer,
  now = Date.now(),
): string | undefined {
  const id = headers['webhook-id']
  const timestamp = headers['webhook-timestamp']
  const signature = headers['webhook-signature']
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string')
    return 'webhook-id, webhook-timestamp or webhook-signature missing'
  const seconds = Number(timestamp)
  if (!Number.isInteger(seconds) || Math.abs(now / 1000 - seconds) > TOLERANCE_SECONDS)
    return 'timestamp more than five minutes from this clock'
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const expected = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), raw]))
    .digest()
  const matches = signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => {
      const given = Buffer.from(entry.slice(3), 'base64')
      return given.length === expected.length && timingSafeEqual(given, expected)
    })
  return matches ? undefined : 'no v1 signature matches the secret'
}
