import { type GroupState, planFairClaims } from '@docsvc/core/sdk'
import type { Db, JobWithMetadata } from 'pg-boss'
import { type PgClaimedJob, toClaimedJob } from './pgboss-jobs.ts'

// Claims on pg-boss's job table by the rule every backend shares (planFairClaims). pg-boss's own
// fetch takes jobs in priority and arrival order only (its group concurrency skips groups at their
// limit but does not make them take turns), so the claim is ours: in one transaction, under an
// advisory lock per queue (claims of every process take turns; sends do not wait), it reads one
// line per group, plans, and moves the chosen jobs to `active` exactly as pg-boss's fetch does
// (started_on, heartbeat_on, retry_count), so pg-boss settles, expires and retries them as its own.
// A job's group is pg-boss's group_id, its limit the group_tier (pg-boss's tiers are strings).

export interface PgBossTransactions {
  beginTransaction?: Db['beginTransaction']
}

/** the table that remembers when each group was last served */
export function servedTableSql(schema: string): string {
  return `CREATE TABLE IF NOT EXISTS ${schema}.docsvc_group_served (
    name text NOT NULL,
    group_key text NOT NULL,
    served bigint NOT NULL,
    PRIMARY KEY (name, group_key)
  )`
}

const READY = (schema: string) =>
  `j.state < 'active' AND NOT j.blocked AND j.start_after <= ${schema}.job_now()`

function groupsSql(schema: string): string {
  return `SELECT COALESCE(j.group_id, '') AS key,
      count(*) FILTER (WHERE j.state = 'active')::int AS running,
      count(*) FILTER (WHERE ${READY(schema)})::int AS waiting,
      min(j.group_tier::int) FILTER (WHERE ${READY(schema)}) AS group_limit,
      min(ARRAY[-j.priority::float8, extract(epoch FROM j.created_on)::float8 * 1000])
        FILTER (WHERE ${READY(schema)}) AS head,
      COALESCE(max(g.served), 0)::float8 AS served
    FROM ${schema}.job j
    LEFT JOIN ${schema}.docsvc_group_served g ON g.name = j.name AND g.group_key = COALESCE(j.group_id, '')
    WHERE j.name = $1 AND j.state <= 'active'
    GROUP BY COALESCE(j.group_id, '')`
}

function claimSql(schema: string): string {
  return `WITH next AS (
      SELECT j.id FROM ${schema}.job j
      WHERE j.name = $1 AND ${READY(schema)} AND j.group_id IS NOT DISTINCT FROM NULLIF($2, '')
      ORDER BY j.priority DESC, j.created_on
      LIMIT $3
      FOR UPDATE OF j SKIP LOCKED)
    UPDATE ${schema}.job j SET
      state = 'active',
      started_on = ${schema}.job_now(),
      heartbeat_on = ${schema}.job_now(),
      retry_count = CASE WHEN started_on IS NOT NULL THEN retry_count + 1 ELSE retry_count END
    FROM next WHERE j.name = $1 AND j.id = next.id
    RETURNING j.id, j.name, j.data, j.retry_count AS "retryCount", j.retry_limit AS "retryLimit",
      j.expire_seconds AS "expireInSeconds", j.priority, j.created_on AS "createdOn"`
}

function servedSql(schema: string): string {
  return `INSERT INTO ${schema}.docsvc_group_served (name, group_key, served)
    SELECT $1, key, served FROM unnest($2::text[], $3::bigint[]) AS s(key, served)
    ON CONFLICT (name, group_key) DO UPDATE SET served = excluded.served`
}

interface GroupRow {
  key: string
  running: number
  waiting: number
  group_limit: number | null
  head: number[] | null
  served: number
}

/** Claims at most `limit` jobs of queue `name`, fairly between its groups. */
export async function claimFairly(
  db: PgBossTransactions,
  schema: string,
  name: string,
  limit: number,
): Promise<PgClaimedJob[]> {
  if (!db.beginTransaction) throw new Error('the pg-boss database cannot open transactions')
  const tx = await db.beginTransaction()
  try {
    await tx.db.executeSql('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${schema}.${name}`])
    const { rows } = await tx.db.executeSql(groupsSql(schema), [name])
    const groups = (rows as GroupRow[]).map(
      (row): GroupState => ({
        key: row.key,
        limit: row.group_limit,
        running: row.running,
        waiting: row.waiting,
        headRank: row.head?.[0] ?? 0,
        headArrival: row.head?.[1] ?? 0,
        lastServed: Number(row.served),
      }),
    )
    const plan = planFairClaims(groups, limit)
    const claimed: PgClaimedJob[] = []
    for (const [group, count] of plan.take) {
      const taken = await tx.db.executeSql(claimSql(schema), [name, group, count])
      const jobs = (taken.rows as (JobWithMetadata<Record<string, unknown>> & { createdOn: Date })[]).sort(
        (a, b) => b.priority - a.priority || a.createdOn.getTime() - b.createdOn.getTime(),
      )
      claimed.push(...jobs.map((job) => toClaimedJob(job)))
    }
    if (plan.lastServed.size > 0) {
      await tx.db.executeSql(servedSql(schema), [
        name,
        [...plan.lastServed.keys()],
        [...plan.lastServed.values()],
      ])
    }
    await tx.commit()
    return claimed
  } catch (err) {
    await tx.rollback()
    throw err
  }
}
