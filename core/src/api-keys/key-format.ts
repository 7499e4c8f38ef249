import { createHash, randomInt, timingSafeEqual } from 'node:crypto'
import { newIdBody } from '../kernel/ids.ts'

export type KeyMode = 'test' | 'live'

const KEY_PATTERN = /^doc_(test|live)_([0-9a-z]{24})_([A-Za-z0-9]{40})$/
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

export interface ParsedKey {
  mode: KeyMode
  keyId: string
  secret: string
}

/** SPEC 2.3: doc_<mode>_<24-character key id>_<40-character secret>. */
export function parseKeyString(text: string): ParsedKey | undefined {
  const match = KEY_PATTERN.exec(text)
  if (!match) return undefined
  return { mode: match[1] as KeyMode, keyId: match[2]!, secret: match[3]! }
}

export function newKeyParts(mode: KeyMode): ParsedKey & { full: string } {
  const keyId = newIdBody(24)
  let secret = ''
  for (let i = 0; i < 40; i++) secret += SECRET_ALPHABET[randomInt(SECRET_ALPHABET.length)]
  return { mode, keyId, secret, full: `doc_${mode}_${keyId}_${secret}` }
}

/** Secrets carry ~238 random bits, so a plain SHA-256 is a sound one-way hash here. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex')
  const stored = Buffer.from(storedHash, 'hex')
  return given.length === stored.length && timingSafeEqual(given, stored)
}

export function keyRecordId(keyId: string): string {
  return `key_${keyId}`
}

export function keyIdOfRecord(recordId: string): string {
  return recordId.replace(/^key_/, '')
}
