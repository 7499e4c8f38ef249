import { asFunction, Lifetime } from 'awilix'
import type { Logger } from 'pino'
import type { Config } from '../kernel/config.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import { resolveSecretKey } from '../kernel/secret-key.ts'
import { fileStoreFactoriesOf, selectFileStore } from './file-store-factory.ts'
import { FileUrlSigner } from './file-url-signer.ts'

/**
 * `fileStore` and `fileUrlSigner` for the container. Both are made on first use, so a process
 * that never touches files (a CLI command, a queue-only worker test) needs no secret key.
 */
export function fileRegistrations(parts: { config: Config; log: Logger; plugins: PluginSet }) {
  const singleton = { lifetime: Lifetime.SINGLETON }
  return {
    fileStore: asFunction(
      () =>
        selectFileStore({
          config: parts.config,
          factories: fileStoreFactoriesOf(parts.plugins),
          log: parts.log,
        }),
      singleton,
    ),
    fileUrlSigner: asFunction(
      () =>
        new FileUrlSigner({ publicUrl: parts.config.publicUrl, secretKey: resolveSecretKey(parts.config) }),
      singleton,
    ),
  }
}
