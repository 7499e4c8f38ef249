import type { Config } from '../kernel/config.ts'
import type { Registries } from '../kernel/plugins/extension-points.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { QueueBackend, QueueBackendContext } from '../sdk/queue-contracts.ts'

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

/**
 * The first registered backend that serves this installation: pg-boss on PostgreSQL, else SQLite.
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
  for (const id of registries.queueBackends.keys()) {
    const factory = registries.queueBackends.get(id)
    if (factory?.accepts(context)) return factory.create(context)
  }
  return unavailableQueue
}
