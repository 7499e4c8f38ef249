import { randomBytes } from 'node:crypto'
import { SecretBox, type SecretKeyConfig } from '../kernel/secret-box.ts'

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
 * sealed under the installation's secret key (the purpose string keeps existing rows readable).
 */
export class WebhookSecretBox extends SecretBox {
  constructor({ config }: { config: SecretKeyConfig }) {
    super(config, 'docsvc webhook secrets')
  }
}
