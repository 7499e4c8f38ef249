import { chooseFileStore, fileStoreFactoriesOf } from './files/file-store-factory.ts'
import type { Config } from './kernel/config.ts'
import { ConfigError } from './kernel/config-loader.ts'
import type { PluginSet } from './kernel/plugins/plugin-loader.ts'
import { chooseQueueBackend } from './queue/select-queue.ts'

/** What `auto` (or an explicit choice) resolved to; `none` when no queue backend is loaded. */
export interface ProviderChoices {
  queueBackend: string
  fileStore: string
}

/**
 * Checks DOCSVC_QUEUE_BACKEND and DOCSVC_FILE_STORE against the loaded plugins right after they
 * register, before the database is opened or migrated: a choice nobody provides stops start
 * with both problems at once. Nothing is created here (no connection, no S3 client).
 */
export function checkProviderChoices(config: Config, plugins: PluginSet): ProviderChoices {
  const problems: string[] = []
  const attempt = <T>(choose: () => T): T | undefined => {
    try {
      return choose()
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err
      problems.push(...err.problems)
      return undefined
    }
  }
  const queue = attempt(() => chooseQueueBackend(plugins.registries, config))
  const store = attempt(() => chooseFileStore({ config, factories: fileStoreFactoriesOf(plugins) }))
  if (problems.length > 0) throw new ConfigError(problems)
  return {
    queueBackend: queue?.id ?? 'none',
    fileStore: typeof store === 'string' ? store : (store?.id ?? 'local'),
  }
}
