import { SecretBox, type SecretKeyConfig } from '../kernel/secret-box.ts'

/**
 * A destination's credentials at rest: the service must use them, so they cannot be hashed;
 * the JSON object is sealed whole under the installation's secret key, with a purpose of its
 * own so a sealed webhook secret cannot be opened as credentials or the other way round.
 */
export class StorageCredentialBox extends SecretBox {
  constructor({ config }: { config: SecretKeyConfig }) {
    super(config, 'docsvc storage credentials')
  }

  sealCredentials(credentials: Record<string, unknown>): string {
    return this.seal(JSON.stringify(credentials))
  }

  openCredentials(sealed: string): Record<string, unknown> {
    return JSON.parse(this.open(sealed)) as Record<string, unknown>
  }
}
