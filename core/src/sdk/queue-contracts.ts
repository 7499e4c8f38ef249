// The queue between the API and the workers (DESIGN.md §6): pg-boss on PostgreSQL, a small
// SQLite-backed queue embedded. Backends are providers registered in `queueBackends`.

export type JobPriority = 'normal' | 'low'

export interface JobOptions {
  priority: JobPriority
  /** seconds a worker may hold the job; past it the job counts as lost and is retried */
  timeoutSeconds: number
  /** attempts in all, the first included */
  maxAttempts: number
  /**
   * The group the job is claimed fairly within (a workspace, later a batch): groups take turns
   * (src/sdk/fair-claim.ts), and no more than `limit` jobs of the group run at once, across every
   * worker on the store. Without a group a job is in the one group of jobs without one.
   */
  group?: JobGroup
  /**
   * The job's id, a UUID, when the sender must be able to send it again safely (a sweeper putting
   * back the job of a render whose first send may or may not have happened): a second send with
   * the id of a job still stored adds nothing and answers the same id.
   */
  id?: string
}

export interface JobGroup {
  key: string
  /** most jobs of the group running at once (a whole number, at least 1); absent: no limit */
  limit?: number
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
