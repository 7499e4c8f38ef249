// The queue between the API and the workers (DESIGN.md §6): pg-boss on PostgreSQL, a small
// SQLite-backed queue embedded. Backends are providers registered in `queueBackends`.

export type JobPriority = 'normal' | 'low'

export interface JobOptions {
  priority: JobPriority
  /** seconds a worker may hold the job; past it the job counts as lost and is retried */
  timeoutSeconds: number
  /** attempts in all, the first included */
  maxAttempts: number
}

export interface Job<T = Record<string, unknown>> {
  id: string
  name: string
  data: T
  /** 1 for the first attempt */
  attempt: number
  maxAttempts: number
}

export type JobHandler<T = Record<string, unknown>> = (job: Job<T>, signal: AbortSignal) => Promise<void>

export interface QueueBackend {
  send<T extends object>(name: string, data: T, options: JobOptions): Promise<string>
  /** Starts consuming `name` with at most `concurrency` jobs at once in this process. */
  work<T extends object>(
    name: string,
    options: { concurrency: number },
    handler: JobHandler<T>,
  ): Promise<void>
  /** Removes a job that has not started; true when it was removed. */
  cancel(jobId: string): Promise<boolean>
  /** Stops taking jobs; running handlers finish (or are aborted after the deadline). */
  stop(deadlineMs?: number): Promise<void>
  healthcheck(): Promise<{ ok: boolean; detail?: string }>
}

export interface QueueBackendContext {
  /** empty for embedded mode */
  databaseUrl: string
  /** the SQLite file of embedded mode */
  sqlitePath: string
  /** PostgreSQL schema for the queue's tables (tests isolate themselves) */
  schema?: string
}

export interface QueueBackendFactory {
  readonly id: string
  /** whether it serves this installation (pg-boss for postgres://, SQLite otherwise) */
  accepts(ctx: QueueBackendContext): boolean
  create(ctx: QueueBackendContext): QueueBackend
}
