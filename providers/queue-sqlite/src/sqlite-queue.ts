import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { JobHandler, JobOptions, QueueBackend } from '@docsvc/core/sdk'
import { checkJobOptions, JobRunner } from '@docsvc/core/sdk'
import SQLite from 'better-sqlite3'
import { type SqliteClaimedJob, SqliteJobStore } from './sqlite-job-store.ts'

export interface SqliteQueueOptions {
  sqlitePath: string
  /** how often workers look for jobs sent by other processes and for expired leases */
  pollIntervalMs?: number
  /** wait before a failed attempt runs again */
  retryDelaySeconds?: number
  onError?: (err: unknown) => void
}

const DEFAULT_STOP_DEADLINE_MS = 30_000
const PRUNE_EVERY_MS = 3600_000

// Sends in this process wake its workers at once (a sync render waits on this); workers of other
// processes find jobs by polling. Keyed by file and queue name, shared by every instance.
const localSends = new EventEmitter()
localSends.setMaxListeners(0)

export function createSqliteQueue(options: SqliteQueueOptions): QueueBackend {
  return new SqliteQueue(options)
}

export class SqliteQueue implements QueueBackend {
  readonly #file: string
  readonly #pollIntervalMs: number
  readonly #retryDelayMs: number
  readonly #onError: (err: unknown) => void
  /** fences this instance's claims: a job whose lease another worker took is not settled here */
  readonly #owner = randomUUID()
  #db: SQLite.Database | undefined
  #store: SqliteJobStore | undefined
  readonly #workers: { runner: JobRunner<SqliteClaimedJob>; close(): void }[] = []
  #stopped = false
  #prunedAt = 0

  constructor(options: SqliteQueueOptions) {
    this.#file = options.sqlitePath === ':memory:' ? options.sqlitePath : path.resolve(options.sqlitePath)
    this.#pollIntervalMs = options.pollIntervalMs ?? 200
    this.#retryDelayMs = (options.retryDelaySeconds ?? 1) * 1000
    this.#onError = options.onError ?? (() => {})
  }

  /** opened on first use, so creating the backend does no I/O */
  #open(): SqliteJobStore {
    if (this.#stopped) throw new Error('the SQLite queue is stopped')
    if (this.#store) return this.#store
    if (this.#file !== ':memory:') mkdirSync(path.dirname(this.#file), { recursive: true })
    const db = new SQLite(this.#file)
    try {
      // first, so the switch to WAL also waits for another process's lock
      db.pragma('busy_timeout = 5000')
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = NORMAL')
      this.#store = new SqliteJobStore(db)
    } catch (err) {
      db.close()
      throw err
    }
    this.#db = db
    return this.#store
  }

  async send<T extends object>(name: string, data: T, options: JobOptions): Promise<string> {
    checkJobOptions(options)
    const id = this.#open().insert(name, data, options)
    localSends.emit(wakeKey(this.#file, name))
    return id
  }

  async work<T extends object>(
    name: string,
    options: { concurrency: number },
    handler: JobHandler<T>,
  ): Promise<void> {
    const store = this.#open()
    const runner = new JobRunner<SqliteClaimedJob>({
      concurrency: options.concurrency,
      handler: handler as unknown as JobHandler,
      onError: this.#onError,
      source: {
        claim: (limit) => {
          this.#pruneNow(store)
          return store.claim(name, this.#owner, limit)
        },
        complete: (job) => store.complete(job),
        fail: (job, error) => {
          if (store.fail(job, error, this.#retryDelayMs) && this.#retryDelayMs === 0) {
            localSends.emit(wakeKey(this.#file, name))
          }
        },
      },
    })
    // a microtask later, so send() returns before the claim runs
    const wake = () => queueMicrotask(() => runner.wake())
    const key = wakeKey(this.#file, name)
    localSends.on(key, wake)
    const poll = setInterval(() => runner.wake(), this.#pollIntervalMs)
    this.#workers.push({
      runner,
      close: () => {
        localSends.off(key, wake)
        clearInterval(poll)
      },
    })
    runner.wake()
  }

  async cancel(jobId: string): Promise<boolean> {
    return this.#open().cancel(jobId)
  }

  async stop(deadlineMs = DEFAULT_STOP_DEADLINE_MS): Promise<void> {
    if (this.#stopped) return
    // refuses new sends and workers; running handlers still settle through their own store
    this.#stopped = true
    for (const worker of this.#workers) worker.close()
    await Promise.all(this.#workers.map((worker) => worker.runner.stop(deadlineMs)))
    this.#db?.close()
    this.#db = undefined
    this.#store = undefined
  }

  async healthcheck(): Promise<{ ok: boolean; detail?: string }> {
    try {
      const counts = this.#open().counts()
      const detail = ['queued', 'active', 'failed'].map((state) => `${state}=${counts[state] ?? 0}`).join(' ')
      return { ok: true, detail }
    } catch (err) {
      return { ok: false, detail: err instanceof Error ? err.message : String(err) }
    }
  }

  #pruneNow(store: SqliteJobStore): void {
    const now = Date.now()
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return
    this.#prunedAt = now
    store.pruneFailed()
  }
}

function wakeKey(file: string, name: string): string {
  return `${file}\n${name}`
}
