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

/** The first registered backend that serves this installation: pg-boss on PostgreSQL, else SQLite. */
export function selectQueue(registries: Registries, config: Config, pgSchema?: string): QueueBackend {
  const context: QueueBackendContext = {
    databaseUrl: config.databaseUrl,
    sqlitePath: config.sqlitePath,
    ...(pgSchema ? { schema: `${pgSchema}_queue` } : {}),
  }
  for (const id of registries.queueBackends.keys()) {
    const factory = registries.queueBackends.get(id)
    if (factory?.accepts(context)) return factory.create(context)
  }
  return unavailableQueue
}
