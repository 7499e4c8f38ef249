import type { TObject } from 'typebox'
import { readableCredentialFields } from '../sdk/provider-contracts.ts'
import { SecretBox, type SecretKeyConfig } from './secret-box.ts'

/**
 * Provider credentials at rest (SPEC 2.8, 2.9: write-only): a destination's or connection's
 * credentials are sealed as one JSON object under the installation key, with the owner's id in
 * the key's purpose, so a sealed value copied onto another record does not open. Reads of the
 * record show only credentialsView().
 */
export class CredentialSeal {
  readonly #config: SecretKeyConfig

  constructor(config: SecretKeyConfig) {
    this.#config = config
  }

  /**
   * Seals `credentials` for `owner` (e.g. `dst_...`). The schema is the provider's
   * credentialsSchema: a field it does not mark write-only is a provider bug and refused here,
   * so a credential can never be stored where reads would show it.
   */
  seal(owner: string, schema: TObject, credentials: Record<string, unknown>): string {
    const readable = readableCredentialFields(schema)
    if (readable.length > 0) {
      throw new Error(`credential fields must be write-only (CredentialField): ${readable.join(', ')}`)
    }
    const unknown = Object.keys(credentials).filter((name) => !(name in schema.properties))
    if (unknown.length > 0) throw new Error(`not credential fields of this provider: ${unknown.join(', ')}`)
    return this.#box(owner).seal(JSON.stringify(credentials))
  }

  /** the credentials sealed for `owner`; throws when the value was sealed for another owner or key */
  open(owner: string, sealed: string): Record<string, unknown> {
    return JSON.parse(this.#box(owner).open(sealed)) as Record<string, unknown>
  }

  #box(owner: string): SecretBox {
    return new SecretBox(this.#config, `provider-credentials:${owner}`)
  }
}

/** What a read shows of stored credentials (SPEC 2.8 `configured: true`), never their values. */
export function credentialsView(sealed: string | null | undefined): { configured: boolean } {
  return { configured: typeof sealed === 'string' && sealed.length > 0 }
}
