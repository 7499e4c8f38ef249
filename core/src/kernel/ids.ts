import { randomBytes } from 'node:crypto'

// Crockford base32, lower case: ids sort by creation time as plain strings.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'
const TIME_CHARS = 10

export const ID_PREFIXES = {
  render: 'rnd',
  file: 'file',
  batch: 'bat',
  template: 'tpl',
  templateVersion: 'tv',
  dataset: 'ds',
  signedLink: 'lnk',
  asset: 'ast',
  storageDestination: 'dst',
  emailConnection: 'emc',
  emailRule: 'emr',
  emailSend: 'ems',
  webhookEndpoint: 'whe',
  webhookDelivery: 'whd',
  event: 'evt',
  workspace: 'ws',
  request: 'req',
  upload: 'upl',
  apiKey: 'key',
  member: 'mem',
} as const

export type IdKind = keyof typeof ID_PREFIXES

let lastTime = -1
let lastRandom: number[] = []

function encodeTime(ms: number): string {
  let out = ''
  let rest = ms
  for (let i = 0; i < TIME_CHARS; i++) {
    out = ALPHABET[rest % 32] + out
    rest = Math.floor(rest / 32)
  }
  return out
}

function randomDigits(count: number): number[] {
  const bytes = randomBytes(count)
  return Array.from(bytes, (b) => b & 31)
}

// Within one millisecond the random part is incremented, so ids made by one process stay ordered.
function nextRandom(count: number, now: number): number[] {
  if (now === lastTime && lastRandom.length === count) {
    const next = [...lastRandom]
    for (let i = count - 1; i >= 0; i--) {
      const digit = (next[i] ?? 0) + 1
      if (digit < 32) {
        next[i] = digit
        lastRandom = next
        return next
      }
      next[i] = 0
    }
  }
  lastTime = now
  lastRandom = randomDigits(count)
  return lastRandom
}

/** A time-ordered identifier body of `length` characters (10 of time, the rest random). */
export function newIdBody(length = 26, now = Date.now()): string {
  return (
    encodeTime(now) +
    nextRandom(length - TIME_CHARS, now)
      .map((d) => ALPHABET[d])
      .join('')
  )
}

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${newIdBody()}`
}

export function isId(kind: IdKind, value: string): boolean {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9a-z]{20,40}$`).test(value)
}

/** The creation time encoded in an id body, for cursors and diagnostics. */
export function idTime(id: string): number {
  const body = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 1 + TIME_CHARS)
  let ms = 0
  for (const ch of body) ms = ms * 32 + ALPHABET.indexOf(ch)
  return ms
}
