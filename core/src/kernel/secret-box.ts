import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import type { Config } from './config.ts'
import { resolveSecretKey } from './secret-key.ts'

export type SecretKeyConfig = Pick<Config, 'secretKey' | 'mode' | 'dataDir'>

/**
 * Text the service must read back later (a signing secret, a tenant's credentials) sealed with
 * AES-256-GCM under a key derived from the installation's secret key and a purpose, so a box of
 * one purpose cannot open another's. Sealed form: `v1.<iv>.<tag>.<ciphertext>`, base64url parts.
 */
export class SecretBox {
  readonly #config: SecretKeyConfig
  readonly #purpose: string
  #key: Buffer | undefined

  constructor(config: SecretKeyConfig, purpose: string) {
    this.#config = config
    this.#purpose = purpose
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
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error(`not sealed ${this.#purpose}`)
    const decipher = createDecipheriv('aes-256-gcm', this.#aesKey(), Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
  }

  #aesKey(): Buffer {
    this.#key ??= createHash('sha256')
      .update(`${this.#purpose}\n${resolveSecretKey(this.#config)}`)
      .digest()
    return this.#key
  }
}
