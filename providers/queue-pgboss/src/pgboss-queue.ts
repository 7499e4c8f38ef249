import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import type { JobHandler, JobOptions, QueueBackend } from '@docsvc/core/sdk'
import { JobRunner } from '@docsvc/core/sdk'
import { PgBoss } from 'pg-boss'
import { PGBOSS_DEFAULTS } from './pgboss-config.ts'
import { claimFairly, servedTableSql } from './pgboss-fair-claim.ts'
import { notifyChannel, type PgClaimedJob, toSendOptions } from './pgboss-jobs.ts'

export interface PgBossQueueOptions {
  databaseUrl: string
  /** PostgreSQL schema of pg-boss's tables; default docsvc_queue */
  schema?: string
  /** backstop poll of idle workers: retries, expired jobs put back, a missed notification */
  pollIntervalMs?: number
  /** wait before a failed attempt runs again (whole seconds) */
  retryDelaySeconds?: number
  /** how often pg-boss puts back jobs whose worker died (their timeout passed) */
  superviseIntervalSeconds?: number
  poolSize?: number
  onError?: (err: unknown) => void
}

const DEFAULT_SCHEMA = 'docsvc_queue'
const DEFAULT_STOP_DEADLINE_MS = 30_000

// Sends in this process wake its workers directly; NOTIFY wakes those of other processes.
const localSends = new EventEmitter()
localSends.setMaxListeners(0)
/** NOTIFYs this process sent itself are skipped: its workers were woken already */
const PROCESS_TOKEN = randomUUID()

export function createPgBossQueue(options: PgBossQueueOptions): QueueBackend {
  return new PgBossQueue(options)
}

export class PgBossQueue implements QueueBackend {
  readonly #databaseUrl: string
  readonly #schema: string
  readonly #channel: string
  readonly #pollIntervalMs: number
  readonly #retryDelaySeconds: number
  readonly #superviseIntervalSeconds: number
  readonly #poolSize: number
  readonly #onError: (err: unknown) => void
  #boss: Promise<PgBoss> | undefined
  readonly #queues = new Map<string, Promise<void>>()
  #listening: Promise<void> | undefined
  #listenHandle: { close(): Promise<void> } | undefined
  readonly #workers: { name: string; runner: JobRunner<PgClaimedJob>; close(): void }[] = []
  #stopped = false

  constructor(options: PgBossQueueOptions) {
    this.#databaseUrl = options.databaseUrl
    this.#schema = options.schema || DEFAULT_SCHEMA
    this.#channel = notifyChannel(this.#schema)
    this.#pollIntervalMs = options.pollIntervalMs ?? PGBOSS_DEFAULTS.pollIntervalMs
    this.#retryDelaySeconds = options.retryDelaySeconds ?? PGBOSS_DEFAULTS.retryDelaySeconds
    this.#superviseIntervalSeconds =
      options.superviseIntervalSeconds ?? PGBOSS_DEFAULTS.superviseIntervalSeconds
    this.#poolSize = options.poolSize ?? PGBOSS_DEFAULTS.poolSize
    this.#onError = options.onError ?? (() => {})
  }

  /** pg-boss starts (and installs its schema) on first use, so creating the backend does no I/O */
  #start(): Promise<PgBoss> {
    if (this.#stopped) return Promise.reject(new Error('the pg-boss queue is stopped'))
    this.#boss ??= (async () => {
      const boss = new PgBoss({
        connectionString: this.#databaseUrl,
        schema: this.#schema,
        max: this.#poolSize,
        application_name: 'docsvc-queue',
        schedule: false,
        supervise: true,
        superviseIntervalSeconds: this.#superviseIntervalSeconds,
        monitorIntervalSeconds: this.#superviseIntervalSeconds,
      })
      boss.on('error', (err) => this.#onError(err))
      await boss.start()
      await boss.getDb().executeSql(servedTableSql(this.#schema))
      return boss
    })().catch((err: unknown) => {
      this.#boss = undefined
      throw err
    })
    return this.#boss
  }

  #ensureQueue(boss: PgBoss, name: string): Promise<void> {
    let created = this.#queues.get(name)
    if (!created) {
      created = boss.createQueue(name).catch((err: unknown) => {
        this.#queues.delete(name)
        throw err
      })
      this.#queues.set(name, created)
    }
    return created
  }

  async send<T extends object>(name: string, data: T, options: JobOptions): Promise<string> {
    const sendOptions = toSendOptions(options, this.#retryDelaySeconds)
    const boss = await this.#start()
    await this.#ensureQueue(boss, name)
    // null: a job with the given id is stored already (pg-boss inserts with ON CONFLICT DO NOTHING)
    const id = (await boss.send(name, data, sendOptions)) ?? options.id
    if (!id) throw new Error(`pg-boss refused a job for queue ${name}`)
    localSends.emit(this.#wakeKey(name))
    // not awaited: the job is stored, and polling finds it if the notification is lost
    boss
      .getDb()
      .executeSql('SELECT pg_notify($1, $2)', [this.#channel, `${PROCESS_TOKEN}\n${name}`])
      .catch((err: unknown) => this.#onError(err))
    return id
  }

  async work<T extends object>(
    name: string,
    options: { concurrency: number },
    handler: JobHandler<T>,
  ): Promise<void> {
    const boss = await this.#start()
    await this.#ensureQueue(boss, name)
    await this.#listen(boss)
    const runner = new JobRunner<PgClaimedJob>({
      concurrency: options.concurrency,
      handler: handler as unknown as JobHandler,
      onError: this.#onError,
      source: {
        claim: (limit) => claimFairly(boss.getDb(), this.#schema, name, limit),
        // fenced by retryCount: an attempt whose timeout passed and was retried settles nothing
        complete: async (job) => {
          await boss.complete(name, { id: job.id, retryCount: job.retryCount })
        },
        fail: async (job, error) => {
          await boss.fail(name, { id: job.id, retryCount: job.retryCount }, { message: describeError(error) })
        },
      },
    })
    const wake = () => queueMicrotask(() => runner.wake())
    const key = this.#wakeKey(name)
    localSends.on(key, wake)
    const poll = setInterval(() => runner.wake(), this.#pollIntervalMs)
    this.#workers.push({
      name,
      runner,
      close: () => {
        localSends.off(key, wake)
        clearInterval(poll)
      },
    })
    runner.wake()
  }

  /** One LISTEN connection per instance (pg-boss keeps it alive and reconnects it). */
  async #listen(boss: PgBoss): Promise<void> {
    this.#listening ??= (async () => {
      const db = boss.getDb()
      if (!db.listen) return
      this.#listenHandle = await db.listen(
        this.#channel,
        (payload) => {
          const [sender, name] = payload.split('\n')
          if (sender === PROCESS_TOKEN) return
          for (const worker of this.#workers) if (worker.name === name) worker.runner.wake()
        },
        // notifications sent while the connection was down are lost: look once
        () => {
          for (const worker of this.#workers) worker.runner.wake()
        },
      )
    })().catch((err: unknown) => {
      // polling still finds every job, only later
      this.#listening = undefined
      this.#onError(err)
    })
    await this.#listening
  }

  async cancel(jobId: string): Promise<boolean> {
    if (!UUID.test(jobId)) return false
    const boss = await this.#start()
    // only a job no worker holds: created, or waiting for its retry. The schema goes in verbatim,
    // as pg-boss writes it (start() has checked it).
    const { rows } = await boss.getDb().executeSql(
      `UPDATE ${this.#schema}.job SET state = 'cancelled', completed_on = now()
       WHERE id = $1::uuid AND state < 'active' RETURNING id`,
      [jobId],
    )
    return rows.length > 0
  }

  async stop(deadlineMs = DEFAULT_STOP_DEADLINE_MS): Promise<void> {
    if (this.#stopped) return
    this.#stopped = true
    for (const worker of this.#workers) worker.close()
    await Promise.all(this.#workers.map((worker) => worker.runner.stop(deadlineMs)))
    await this.#listenHandle?.close().catch((err: unknown) => this.#onError(err))
    const boss = await this.#boss?.catch(() => undefined)
    await boss?.stop({ graceful: false, close: true })
  }

  async healthcheck(): Promise<{ ok: boolean; detail?: string }> {
    try {
      const boss = await this.#start()
      await boss.getDb().executeSql('SELECT 1')
      const wakeUp = this.#listenHandle ? 'LISTEN/NOTIFY' : 'polling'
      return { ok: true, detail: `schema ${this.#schema}, workers woken by ${wakeUp}` }
    } catch (err) {
      return { ok: false, detail: err instanceof Error ? err.message : String(err) }
    }
  }

  #wakeKey(name: string): string {
    return `${this.#databaseUrl}\n${this.#schema}\n${name}`
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return text.slice(0, 2000)
}
