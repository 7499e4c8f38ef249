import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import type { Config } from '../kernel/config.ts'
import { resolveSecretKey } from '../kernel/secret-key.ts'

const PREFIX = 'whsec_'

/** A new signing secret in the Standard Webhooks format: `whsec_` + base64 of 24 random bytes. */
export function newSigningSecret(): string {
  return PREFIX + randomBytes(24).toString('base64')
}

/** The HMAC key of a signing secret: its base64 part, decoded. */
export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')
}

/**
 * Signing secrets at rest: the service must sign with them, so they cannot be hashed; they are
 * sealed with AES-256-GCM under a key derived from the installation's secret key.
 */
export class WebhookSecretBox {
  readonly #config: Pick<Config, 'secretKey' | 'mode' | 'dataDir'>
  #key: Buffer | undefined

  constructor({ config }: { config: Pick<Config, 'secretKey' | 'mode' | 'dataDir'> }) {
    this.#config = config
  }

  seal(secret: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.#aesKey(), iv)
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
    return ['v1', iv, cipher.getAuthTag(), sealed]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.')
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.')
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed webhook secret')
    const decipher = createDecipheriv('aes-256-gcm', this.#aesKey(), Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
  }

  #aesKey(): Buffer {
    this.#key ??= createHash('sha256')
      .update(`docsvc webhook secrets\n${resolveSecretKey(this.#config)}`)
      .digest()
    return this.#key
  }
}
