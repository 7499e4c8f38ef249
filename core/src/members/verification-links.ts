import {
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto'
import { ProblemError } from '../kernel/problem-error.ts'

/** How long a member's verification link works: time to read a forwarded email, not forever. */
export const VERIFICATION_LINK_HOURS = 72
export const VERIFY_PATH = '/verify-email'

const SIGNATURE_CHARS = 43 // 32 bytes of HMAC-SHA256, base64url
const TOKEN = new RegExp(`^([A-Za-z0-9_-]{10,400})\\.([A-Za-z0-9_-]{${SIGNATURE_CHARS}})$`)

/** What a verification link names: the member, the link's one-time nonce and its expiry. */
export interface VerificationClaims {
  memberId: string
  nonce: string
  /** Unix seconds */
  expiresAt: number
}

/**
 * Verification links: `${publicUrl}/verify-email/<payload>.<signature>`, HMAC-SHA256 with a key
 * derived from the installation's secret (its own purpose, apart from file URLs). The signature
 * proves we made the link; the nonce, kept on the member until the link is opened or replaced,
 * makes it one-time.
 */
export class VerificationLinks {
  readonly #publicUrl: string
  readonly #key: KeyObject
  readonly #now: () => number

  constructor(options: { publicUrl: string; secretKey: string; now?: () => number }) {
    this.#publicUrl = options.publicUrl.replace(/\/+$/, '')
    this.#key = createSecretKey(
      Buffer.from(hkdfSync('sha256', options.secretKey, '', 'docsvc member verification v1', 32)),
    )
    this.#now = options.now ?? (() => Date.now())
  }

  /** A fresh link for the member: its nonce (to store) and its URL and expiry (to hand out). */
  issue(memberId: string): { nonce: string; url: string; expires_at: string } {
    const nonce = randomBytes(16).toString('base64url')
    const expiresAt = Math.floor(this.#now() / 1000) + VERIFICATION_LINK_HOURS * 3600
    const payload = Buffer.from(JSON.stringify({ m: memberId, n: nonce, e: expiresAt })).toString('base64url')
    return {
      nonce,
      url: `${this.#publicUrl}${VERIFY_PATH}/${payload}.${this.#sign(payload)}`,
      expires_at: new Date(expiresAt * 1000).toISOString(),
    }
  }

  /** The claims of a token we signed that has not expired; 403 `invalid_signature` or 410 `link_expired` otherwise. */
  read(token: string): VerificationClaims {
    const match = TOKEN.exec(token)
    const payload = match?.[1]
    const signature = match?.[2]
    if (!payload || !signature || !this.#matches(payload, signature)) {
      throw new ProblemError('invalid_signature', 'This verification link is not one the service made.')
    }
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      m: string
      n: string
      e: number
    }
    if (claims.e * 1000 <= this.#now()) {
      throw new ProblemError(
        'link_expired',
        `This verification link expired at ${new Date(claims.e * 1000).toISOString()}; ask the operator for a new one.`,
      )
    }
    return { memberId: claims.m, nonce: claims.n, expiresAt: claims.e }
  }

  #sign(payload: string): string {
    return createHmac('sha256', this.#key).update(payload).digest('base64url')
  }

  #matches(payload: string, signature: string): boolean {
    const expected = Buffer.from(this.#sign(payload))
    const given = Buffer.from(signature)
    return expected.length === given.length && timingSafeEqual(expected, given)
  }
}
