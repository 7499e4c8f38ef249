import path from 'node:path'
import type { Logger } from 'pino'
import type { Config } from '../kernel/config.ts'
import { ConfigError } from '../kernel/config-loader.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import type { FileStore, FileStoreFactory } from '../sdk/file-contracts.ts'
import { LocalFileStore } from './local-file-store.ts'

/** The registered hosted-file providers. */
export function fileStoreFactoriesOf(plugins: PluginSet): FileStoreFactory[] {
  const registry = plugins.registries.fileStores
  return registry.keys().flatMap((key) => registry.get(key) ?? [])
}

/** The configured provider's store; otherwise files on local disk under `${dataDir}/files`. */
export function selectFileStore(options: {
  config: Pick<Config, 'mode' | 'dataDir'>
  factories: FileStoreFactory[]
  log: Pick<Logger, 'warn'>
}): FileStore {
  const configured = options.factories.filter((f) => f.configured)
  if (configured.length > 1) {
    throw new ConfigError([
      `hosted files: configure one file store, not ${configured.length} (${configured.map((f) => f.id).join(', ')})`,
    ])
  }
  const chosen = configured[0]
  if (chosen) return chosen.create()
  if (options.config.mode === 'cluster') {
    options.log.warn(
      'cluster mode keeps hosted files on local disk (DOCSVC_DATA_DIR/files): every API and worker pod must share that volume, or configure an S3 bucket (@docsvc/filestore-s3)',
    )
  }
  return new LocalFileStore(path.join(options.config.dataDir, 'files'))
}
