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

/**
 * The table that remembers when each group was last served. Every process of a cluster makes it
 * at start, at the same moment; CREATE TABLE IF NOT EXISTS is not safe against itself (two
 * makers collide on the catalogue's unique type name), so the makers take turns under a lock.
 */
export function servedTableSql(schema: string): string {
  return `DO $$ BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('${schema}.docsvc_group_served'));
    CREATE TABLE IF NOT EXISTS ${schema}.docsvc_group_served (
      name text NOT NULL,
      group_key text NOT NULL,
      served bigint NOT NULL,
      PRIMARY KEY (name, group_key)
    );
  END $$`
}

/** ready to be claimed now (pg-boss's own condition) */
const READY = (schema: string) =>
  `j.state < 'active' AND NOT j.blocked AND j.start_after <= ${schema}.job_now()`

// one pass over the queue's live rows, each row's readiness worked out once (job_now() read once)
function groupsSql(schema: string): string {
  return `WITH line AS (
      SELECT COALESCE(j.group_id, '') AS key,
        count(*) FILTER (WHERE j.active)::int AS running,
        count(*) FILTER (WHERE j.ready)::int AS waiting,
        min(j.group_tier::int) FILTER (WHERE j.ready) AS group_limit,
        max(j.priority) FILTER (WHERE j.ready) AS head_priority,
        min(j.created_on) FILTER (WHERE j.ready) AS head_arrival
      FROM (
        SELECT group_id, group_tier, priority, created_on, state = 'active' AS active,
          state < 'active' AND NOT blocked AND start_after <= clock.now AS ready
        FROM ${schema}.job, (SELECT ${schema}.job_now() AS now) clock
        WHERE name = $1 AND state <= 'active'
      ) j
      GROUP BY COALESCE(j.group_id, ''))
    SELECT line.key, line.running, line.waiting, line.group_limit,
      COALESCE(-line.head_priority, 0)::float8 AS head_rank,
      COALESCE(extract(epoch FROM line.head_arrival) * 1000, 0)::float8 AS head_arrival,
      COALESCE(g.served, 0)::float8 AS served
    FROM line LEFT JOIN ${schema}.docsvc_group_served g ON g.name = $1 AND g.group_key = line.key`
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
  head_rank: number
  head_arrival: number
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
        headRank: row.head_rank,
        headArrival: row.head_arrival,
        lastServed: Number(row.served),
      }),
    )
    const highest = await tx.db.executeSql(
      `SELECT COALESCE(max(served), 0)::float8 AS highest FROM ${schema}.docsvc_group_served WHERE name = $1`,
      [name],
    )
    const plan = planFairClaims(groups, limit, Number(highest.rows[0]?.highest ?? 0))
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
