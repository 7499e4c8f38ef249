import { randomUUID } from 'node:crypto'
import {
  type ClaimedJob,
  type GroupState,
  type JobOptions,
  planFairClaims,
  UNGROUPED,
} from '@docsvc/core/sdk'
import type { Database, Statement } from 'better-sqlite3'

// The queue's rows in the installation's SQLite file. A job is `queued` until a worker claims it
// (`active`, with a lease); done jobs are deleted, jobs out of attempts stay `failed`. A job
// waiting for a retry is `scheduled` until its time comes, so the queued rows are all due and a
// claim reads only the few it takes, however deep the backlog (a down webhook endpoint leaves
// thousands of deliveries waiting). Claims run in IMMEDIATE transactions, so workers in other
// processes never take the same job. Which jobs a claim takes is the rule shared by every backend
// (planFairClaims): groups take turns and none runs more than its limit; the claim reads one line
// per group, and `docsvc_queue_group` remembers when each group was last served.

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
CREATE INDEX IF NOT EXISTS docsvc_queue_job_due ON docsvc_queue_job (name, state, run_after);
CREATE TABLE IF NOT EXISTS docsvc_queue_group (
  name TEXT NOT NULL,
  group_key TEXT NOT NULL,
  served INTEGER NOT NULL,
  PRIMARY KEY (name, group_key)
);
`

/** added with fair claiming: a file made before gets them on open */
const GROUP_COLUMNS = `
ALTER TABLE docsvc_queue_job ADD COLUMN group_key TEXT NOT NULL DEFAULT '';
ALTER TABLE docsvc_queue_job ADD COLUMN group_limit INTEGER;
`
const GROUP_INDEX = `
DROP INDEX IF EXISTS docsvc_queue_job_claim;
CREATE INDEX IF NOT EXISTS docsvc_queue_job_group_claim ON docsvc_queue_job (name, state, group_key, priority, seq);
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

interface GroupRow {
  key: string
  running: number
  waiting: number
  group_limit: number | null
  head_rank: number | null
  head_arrival: number | null
  served: number
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
  readonly #groups: Statement
  readonly #claim: Statement
  readonly #served: Statement
  readonly #highestServed: Statement
  readonly #complete: Statement
  readonly #fail: Statement
  readonly #cancel: Statement
  readonly #pruneFailed: Statement
  readonly #counts: Statement

  constructor(db: Database) {
    this.#db = db
    db.exec(SCHEMA)
    const columns = db.prepare(`PRAGMA table_info(docsvc_queue_job)`).all() as { name: string }[]
    if (!columns.some((column) => column.name === 'group_key')) db.exec(GROUP_COLUMNS)
    db.exec(GROUP_INDEX)
    // rows written before `scheduled` existed: a queued row waiting for its retry becomes one
    db.prepare(
      `UPDATE docsvc_queue_job SET state = 'scheduled' WHERE state = 'queued' AND run_after > ?`,
    ).run(Date.now())
    this.#insert = db.prepare(`INSERT INTO docsvc_queue_job
      (id, name, data, priority, state, max_attempts, timeout_seconds, run_after, created_at, updated_at,
        group_key, group_limit)
      VALUES (@id, @name, @data, @priority, 'queued', @maxAttempts, @timeoutSeconds, @now, @now, @now,
        @groupKey, @groupLimit)
      ON CONFLICT (id) DO NOTHING`)
    this.#hasClaimable = db.prepare(`SELECT EXISTS (SELECT 1 FROM docsvc_queue_job WHERE ${DUE_QUEUED})
      OR EXISTS (SELECT 1 FROM docsvc_queue_job WHERE ${DUE_SCHEDULED})
      OR EXISTS (SELECT 1 FROM docsvc_queue_job WHERE ${LEASE_EXPIRED}) AS claimable`)
    // a lease that ran out on the last attempt: the job is lost for good
    this.#expireExhausted = db.prepare(`UPDATE docsvc_queue_job
      SET state = 'failed', last_error = 'lease expired', lease_until = NULL, lease_owner = NULL, updated_at = @now
      WHERE name = @name AND state = 'active' AND lease_until <= @now AND attempt >= max_attempts`)
    this.#promoteDue = db.prepare(`UPDATE docsvc_queue_job SET state = 'queued' WHERE ${DUE_SCHEDULED}`)
    // ready: queued, or held under a lease that ran out; running: held under a live lease
    this.#groups = db.prepare(`SELECT j.group_key AS key,
        SUM(j.state = 'active' AND j.lease_until > @now) AS running,
        SUM(j.state = 'queued' OR (j.state = 'active' AND j.lease_until <= @now)) AS waiting,
        MIN(CASE WHEN j.state = 'queued' OR j.lease_until <= @now THEN j.group_limit END) AS group_limit,
        MIN(CASE WHEN j.state = 'queued' OR j.lease_until <= @now THEN j.priority END) AS head_rank,
        MIN(CASE WHEN j.state = 'queued' OR j.lease_until <= @now THEN j.seq END) AS head_arrival,
        COALESCE((SELECT served FROM docsvc_queue_group g WHERE g.name = @name AND g.group_key = j.group_key), 0)
          AS served
      FROM docsvc_queue_job j WHERE j.name = @name AND j.state IN ('queued', 'active')
      GROUP BY j.group_key`)
    this.#highestServed = db.prepare(
      `SELECT COALESCE(MAX(served), 0) AS highest FROM docsvc_queue_group WHERE name = @name`,
    )
    this.#served =
      db.prepare(`INSERT INTO docsvc_queue_group (name, group_key, served) VALUES (@name, @key, @served)
      ON CONFLICT (name, group_key) DO UPDATE SET served = excluded.served`)
    // the first `limit` of each kind, each read in index order, then the first `limit` of both:
    // one OR over both kinds would sort every queued row on each claim
    this.#claim = db.prepare(`WITH candidate AS (
        SELECT seq, priority FROM (SELECT seq, priority FROM docsvc_queue_job
          WHERE ${DUE_QUEUED} AND group_key = @group ORDER BY priority, seq LIMIT @limit)
        UNION ALL
        SELECT seq, priority FROM (SELECT seq, priority FROM docsvc_queue_job
          WHERE ${LEASE_EXPIRED} AND group_key = @group ORDER BY priority, seq LIMIT @limit))
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

  /** A job sent again with the id of one still stored adds nothing. */
  insert(name: string, data: object, options: JobOptions): string {
    const id = options.id ?? randomUUID()
    this.#insert.run({
      groupKey: options.group?.key ?? UNGROUPED,
      groupLimit: options.group?.limit ?? null,
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
        const groups = (this.#groups.all({ name, now }) as GroupRow[]).map(
          (row): GroupState => ({
            key: row.key,
            limit: row.group_limit,
            running: row.running,
            waiting: row.waiting,
            headRank: row.head_rank ?? 0,
            headArrival: row.head_arrival ?? 0,
            lastServed: row.served,
          }),
        )
        const { highest } = this.#highestServed.get({ name }) as { highest: number }
        const plan = planFairClaims(groups, limit, highest)
        const claimed: ClaimedRow[] = []
        for (const [group, count] of plan.take) {
          const rows = this.#claim.all({ name, now, owner, limit: count, group }) as ClaimedRow[]
          // RETURNING gives no order
          claimed.push(...rows.sort((a, b) => a.priority - b.priority || a.seq - b.seq))
        }
        for (const [key, served] of plan.lastServed) this.#served.run({ name, key, served })
        return claimed
      })
      .immediate()
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
