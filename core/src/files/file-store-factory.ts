import path from 'node:path'
import type { Logger } from 'pino'
import { type Config, ENV_PREFIX } from '../kernel/config.ts'
import { ConfigError } from '../kernel/config-loader.ts'
import type { PluginSet } from '../kernel/plugins/plugin-loader.ts'
import type { FileStore, FileStoreFactory } from '../sdk/file-contracts.ts'
import { LocalFileStore } from './local-file-store.ts'

const SETTING = `${ENV_PREFIX}_FILE_STORE`
/** The store every installation has: files on local disk under `${dataDir}/files`. */
export const LOCAL_FILE_STORE = 'local'

/** The registered hosted-file providers. */
export function fileStoreFactoriesOf(plugins: PluginSet): FileStoreFactory[] {
  const registry = plugins.registries.fileStores
  return registry.keys().flatMap((key) => registry.get(key) ?? [])
}

/**
 * The provider DOCSVC_FILE_STORE names, or `local`. `auto` takes the one provider whose own
 * settings name a place (a bucket), else local disk. Whatever the choice, a provider configured
 * beside it is refused rather than ignored, and a chosen provider must be configured.
 */
export function chooseFileStore(options: {
  config: Pick<Config, 'fileStore'>
  factories: FileStoreFactory[]
}): FileStoreFactory | typeof LOCAL_FILE_STORE {
  const { fileStore } = options.config
  const configured = options.factories.filter((f) => f.configured)
  if (fileStore === 'auto') {
    if (configured.length > 1) {
      throw new ConfigError([
        `hosted files: configure one file store, not ${configured.length} (${configured.map((f) => f.id).join(', ')}), or choose one with ${SETTING}`,
      ])
    }
    return configured[0] ?? LOCAL_FILE_STORE
  }
  const chosen = options.factories.find((f) => f.id === fileStore)
  if (fileStore !== LOCAL_FILE_STORE && !chosen) {
    const loaded = [LOCAL_FILE_STORE, ...options.factories.map((f) => f.id)]
    throw new ConfigError([
      `${SETTING}: no loaded plugin provides the file store "${fileStore}" (loaded: ${loaded.join(', ')}; or auto)`,
    ])
  }
  const problems: string[] = []
  if (chosen && !chosen.configured)
    problems.push(
      `${SETTING}: the file store "${fileStore}" is chosen but its plugin's settings name no place to store files (e.g. a bucket)`,
    )
  for (const other of configured.filter((f) => f !== chosen))
    problems.push(
      `${SETTING}: the file store "${fileStore}" is chosen, but "${other.id}" is configured too and would be ignored: unset its settings`,
    )
  if (problems.length > 0) throw new ConfigError(problems)
  return chosen ?? LOCAL_FILE_STORE
}

/** The chosen provider's store (`chooseFileStore`); otherwise files on local disk under `${dataDir}/files`. */
export function selectFileStore(options: {
  config: Pick<Config, 'mode' | 'dataDir' | 'fileStore'>
  factories: FileStoreFactory[]
  log: Pick<Logger, 'warn'>
}): FileStore {
  const chosen = chooseFileStore(options)
  if (chosen !== LOCAL_FILE_STORE) return chosen.create()
  if (options.config.mode === 'cluster') {
    options.log.warn(
      'cluster mode keeps hosted files on local disk (DOCSVC_DATA_DIR/files): every API and worker pod must share that volume, or configure an S3 bucket (@docsvc/filestore-s3)',
    )
  }
  return new LocalFileStore(path.join(options.config.dataDir, 'files'))
}
