import { type Config, ENV_PREFIX } from '../kernel/config.ts'
import { ConfigError } from '../kernel/config-loader.ts'
import type { Registries } from '../kernel/plugins/extension-points.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { QueueBackend, QueueBackendContext, QueueBackendFactory } from '../sdk/queue-contracts.ts'

const SETTING = `${ENV_PREFIX}_QUEUE_BACKEND`

/** What `auto` means: the built-in queue of each mode, never whichever key sorts first. */
export const AUTO_QUEUE_BACKEND = { embedded: 'sqlite', cluster: 'pgboss' } as const

/** Without any queue plugin (a kernel booted with no built-ins) renders are refused, not lost. */
const unavailableQueue: QueueBackend = {
  send: async () => {
    throw new ProblemError('service_unavailable', 'No queue backend is installed; renders cannot run.')
  },
  work: async () => {},
  cancel: async () => false,
  stop: async () => {},
  healthcheck: async () => ({ ok: false, detail: 'no queue backend installed' }),
}

/**
 * The schema a database URL confines the installation to: the first entry of a libpq
 * `options=-c search_path=...` parameter, when it is a plain identifier.
 */
export function searchPathSchema(databaseUrl: string): string | undefined {
  if (!databaseUrl) return undefined
  let options: string | null
  try {
    options = new URL(databaseUrl).searchParams.get('options')
  } catch {
    return undefined
  }
  const first = /(?:^|\s)-c\s*search_path=([^,\s]+)/.exec(options ?? '')?.[1]
  return first && /^[A-Za-z_][A-Za-z0-9_]*$/.test(first) ? first : undefined
}

/** The queue backend's key the config asks for: an explicit one, or the mode's built-in. */
export function queueBackendKey(config: Pick<Config, 'queueBackend' | 'mode'>): string {
  return config.queueBackend === 'auto' ? AUTO_QUEUE_BACKEND[config.mode] : config.queueBackend
}

/**
 * The factory of the chosen backend, checked against what the plugins provide. Undefined only
 * for `auto` when the mode's built-in is not loaded (a kernel booted without built-ins), which
 * refuses renders instead of losing them; an explicit choice nobody provides, or one that cannot
 * serve this installation (SQLite for a cluster), stops start naming DOCSVC_QUEUE_BACKEND.
 */
export function chooseQueueBackend(
  registries: Registries,
  config: Pick<Config, 'queueBackend' | 'mode' | 'databaseUrl' | 'sqlitePath'>,
  context: QueueBackendContext = { databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath },
): QueueBackendFactory | undefined {
  const key = queueBackendKey(config)
  const factory = registries.queueBackends.get(key)
  if (!factory) {
    if (config.queueBackend === 'auto') return undefined
    const loaded = registries.queueBackends.keys()
    throw new ConfigError([
      `${SETTING}: no loaded plugin provides the queue backend "${key}" (loaded: ${loaded.join(', ') || 'none'}; or auto)`,
    ])
  }
  if (!factory.accepts(context)) {
    const where = config.mode === 'cluster' ? 'cluster mode (DOCSVC_DATABASE_URL is set)' : 'embedded mode'
    throw new ConfigError([`${SETTING}: the queue backend "${key}" cannot serve an installation in ${where}`])
  }
  return factory
}

/**
 * The configured backend (`chooseQueueBackend`), made for this installation.
 * An installation in its own schema (a test's, or the URL's search_path) keeps its queue beside
 * it: two installations sharing pg-boss's default schema would take each other's jobs, and a
 * worker that finds no render for a job drops it, leaving the other's render queued for a day.
 */
export function selectQueue(registries: Registries, config: Config, pgSchema?: string): QueueBackend {
  const schema = pgSchema ?? searchPathSchema(config.databaseUrl)
  const context: QueueBackendContext = {
    databaseUrl: config.databaseUrl,
    sqlitePath: config.sqlitePath,
    ...(schema ? { schema: `${schema}_queue` } : {}),
  }
  return chooseQueueBackend(registries, config, context)?.create(context) ?? unavailableQueue
}
