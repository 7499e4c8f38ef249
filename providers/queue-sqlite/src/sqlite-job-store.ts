import { randomUUID } from 'node:crypto'
import type { ClaimedJob, JobOptions } from '@docsvc/core/sdk'
import type { Database, Statement } from 'better-sqlite3'

// The queue's rows in the installation's SQLite file. A job is `queued` until a worker claims it
// (`active`, with a lease); done jobs are deleted, jobs out of attempts stay `failed`. A job
// waiting for a retry is `scheduled` until its time comes, so the queued rows are all due and a
// claim reads only the few it takes, however deep the backlog (a down webhook endpoint leaves
// thousands of deliveries waiting). Claims run in IMMEDIATE transactions, so workers in other
// processes never take the same job.

const SCHEMA = `
CREATE TABLE IF NOT EXISTS docsvc_queue_job (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  data TEXT NOT NULL,
  priority INTEGER NOT NULL,
  state TEXT NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  timeout_seconds REAL NOT NULL,
  run_after INTEGER NOT NULL,
  lease_until INTEGER,
  lease_owner TEXT,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS docsvc_queue_job_claim ON docsvc_queue_job (name, state, priority, seq);
CREATE INDEX IF NOT EXISTS docsvc_queue_job_due ON docsvc_queue_job (name, state, run_after);
`

/** normal is claimed before low; within a priority, first in first out (seq) */
const PRIORITY_RANK = { normal: 0, low: 1 } as const

const DUE_QUEUED = `name = @name AND state = 'queued'`
const LEASE_EXPIRED = `name = @name AND state = 'active' AND lease_until <= @now`
const DUE_SCHEDULED = `name = @name AND state = 'scheduled' AND run_after <= @now`

const FAILED_RETENTION_MS = 7 * 24 * 3600 * 1000

export interface SqliteClaimedJob extends ClaimedJob {
  owner: string
}

interface ClaimedRow {
  id: string
  name: string
  data: string
  attempt: number
  max_attempts: number
  timeout_seconds: number
  priority: number
  seq: number
}

export class SqliteJobStore {
  readonly #db: Database
  readonly #insert: Statement
  readonly #hasClaimable: Statement
  readonly #expireExhausted: Statement
  readonly #promoteDue: Statement
  readonly #claim: Statement
  readonly #complete: Statement
  readonly #fail: Statement
  readonly #cancel: Statement
  readonly #pruneFailed: Statement
  readonly #counts: Statement

  constructor(db: Database) {
    this.#db = db
    db.exec(SCHEMA)
    // rows written before `scheduled` existed: a queued row waiting for its retry becomes one
    db.prepare(
      `UPDATE docsvc_queue_job SET state = 'scheduled' WHERE state = 'queued' AND run_after > ?`,
    ).run(Date.now())
    this.#insert = db.prepare(`INSERT INTO docsvc_queue_job
      (id, name, data, priority, state, max_attempts, timeout_seconds, run_after, created_at, updated_at)
      VALUES (@id, @name, @data, @priority, 'queued', @maxAttempts, @timeoutSeconds, @now, @now, @now)`)
    this.#hasClaimable = db.prepare(`SELECT EXISTS (SELECT 1 FROM docsvc_queue_job WHERE ${DUE_QUEUED})
      OR EXISTS (SELECT 1 FROM docsvc_queue_job WHERE ${DUE_SCHEDULED})
      OR EXISTS (SELECT 1 FROM docsvc_queue_job WHERE ${LEASE_EXPIRED}) AS claimable`)
    // a lease that ran out on the last attempt: the job is lost for good
    this.#expireExhausted = db.prepare(`UPDATE docsvc_queue_job
      SET state = 'failed', last_error = 'lease expired', lease_until = NULL, lease_owner = NULL, updated_at = @now
      WHERE name = @name AND state = 'active' AND lease_until <= @now AND attempt >= max_attempts`)
    this.#promoteDue = db.prepare(`UPDATE docsvc_queue_job SET state = 'queued' WHERE ${DUE_SCHEDULED}`)
    // the first `limit` of each kind, each read in index order, then the first `limit` of both:
    // one OR over both kinds would sort every queued row on each claim
    this.#claim = db.prepare(`WITH candidate AS (
        SELECT seq, priority FROM (SELECT seq, priority FROM docsvc_queue_job WHERE ${DUE_QUEUED}
          ORDER BY priority, seq LIMIT @limit)
        UNION ALL
        SELECT seq, priority FROM (SELECT seq, priority FROM docsvc_queue_job WHERE ${LEASE_EXPIRED}
          ORDER BY priority, seq LIMIT @limit))
      UPDATE docsvc_queue_job
      SET state = 'active', attempt = attempt + 1, lease_owner = @owner, updated_at = @now,
        lease_until = @now + CAST(timeout_seconds * 1000 AS INTEGER)
      WHERE seq IN (SELECT seq FROM candidate ORDER BY priority, seq LIMIT @limit)
      RETURNING id, name, data, attempt, max_attempts, timeout_seconds, priority, seq`)
    // fenced by attempt and owner: a worker whose lease was taken over settles nothing
    this.#complete = db.prepare(`DELETE FROM docsvc_queue_job
      WHERE id = @id AND attempt = @attempt AND lease_owner = @owner AND state = 'active'`)
    this.#fail = db.prepare(`UPDATE docsvc_queue_job
      SET state = CASE WHEN attempt >= max_attempts THEN 'failed'
          WHEN @runAfter > @now THEN 'scheduled' ELSE 'queued' END,
        run_after = @runAfter, lease_until = NULL, lease_owner = NULL, last_error = @error, updated_at = @now
      WHERE id = @id AND attempt = @attempt AND lease_owner = @owner AND state = 'active'
      RETURNING state`)
    this.#cancel = db.prepare(
      `DELETE FROM docsvc_queue_job WHERE id = ? AND state IN ('queued', 'scheduled')`,
    )
    this.#pruneFailed = db.prepare(`DELETE FROM docsvc_queue_job WHERE state = 'failed' AND updated_at < ?`)
    this.#counts = db.prepare(`SELECT state, count(*) AS n FROM docsvc_queue_job GROUP BY state`)
  }

  insert(name: string, data: object, options: JobOptions): string {
    const id = randomUUID()
    this.#insert.run({
      id,
      name,
      data: JSON.stringify(data),
      priority: PRIORITY_RANK[options.priority] ?? PRIORITY_RANK.normal,
      maxAttempts: options.maxAttempts,
      timeoutSeconds: options.timeoutSeconds,
      now: Date.now(),
    })
    return id
  }

  claim(name: string, owner: string, limit: number): SqliteClaimedJob[] {
    const now = Date.now()
    // a read first, so idle polling never takes the write lock
    if (!(this.#hasClaimable.get({ name, now }) as { claimable: number }).claimable) return []
    const rows = this.#db
      .transaction(() => {
        this.#expireExhausted.run({ name, now })
        this.#promoteDue.run({ name, now })
        return this.#claim.all({ name, now, owner, limit }) as ClaimedRow[]
      })
      .immediate()
    // RETURNING gives no order
    rows.sort((a, b) => a.priority - b.priority || a.seq - b.seq)
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      data: JSON.parse(row.data) as Record<string, unknown>,
      attempt: row.attempt,
      maxAttempts: row.max_attempts,
      timeoutSeconds: row.timeout_seconds,
      owner,
    }))
  }

  complete(job: SqliteClaimedJob): void {
    this.#complete.run({ id: job.id, attempt: job.attempt, owner: job.owner })
  }

  /** true when the job went back to the queue for another attempt */
  fail(job: SqliteClaimedJob, error: unknown, retryDelayMs: number): boolean {
    const now = Date.now()
    const row = this.#fail.get({
      id: job.id,
      attempt: job.attempt,
      owner: job.owner,
      error: describeError(error),
      runAfter: now + retryDelayMs,
      now,
    }) as { state: string } | undefined
    return row?.state === 'queued' || row?.state === 'scheduled'
  }

  cancel(jobId: string): boolean {
    return this.#cancel.run(jobId).changes > 0
  }

  pruneFailed(): void {
    this.#pruneFailed.run(Date.now() - FAILED_RETENTION_MS)
  }

  counts(): Record<string, number> {
    const rows = this.#counts.all() as { state: string; n: number }[]
    const counts: Record<string, number> = {}
    // a job waiting for its retry is still queued, to whoever reads the counts
    for (const row of rows) {
      const state = row.state === 'scheduled' ? 'queued' : row.state
      counts[state] = (counts[state] ?? 0) + row.n
    }
    return counts
  }
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return text.slice(0, 2000)
}
