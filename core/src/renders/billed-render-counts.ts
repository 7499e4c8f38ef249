import { sql } from 'kysely'
import type { Db } from '../db/database.ts'

/** A window of billed renders to count (the account feature's usage query, region aside). */
export interface BilledCountWindow {
  /** inclusive, ISO 8601 UTC with milliseconds (the form `billed_at` is stored in) */
  from: string
  /** exclusive, same form */
  to: string
  granularity: 'day' | 'hour'
  groupBy: BilledCountGroup | null
}

/** Billed renders of one bucket (and one group value, when grouped). */
export interface UsageCount {
  /** `YYYY-MM-DD` for day buckets, `YYYY-MM-DDTHH` for hour buckets */
  bucket: string
  group: string | null
  renders: number
}

// Columns a count can be grouped by.
const GROUP_COLUMNS = {
  key_id: 'r.key_id',
  kind: 'b.kind',
  source: 'r.source',
  template_id: 'r.template_id',
} as const

export type BilledCountGroup = keyof typeof GROUP_COLUMNS

/** The prefix length of an ISO 8601 `billed_at` that names its bucket. */
const BUCKET_LENGTH = { day: 10, hour: 13 } as const

/**
 * Counts billed renders per bucket (and group) with one query that SQLite and PostgreSQL both run:
 * timestamps are ISO 8601 UTC text, so a bucket is a prefix of `billed_at`. The renders feature
 * owns the billing rows; the account feature's usage series reads them through this, not the tables.
 */
export class BilledRenderCounts {
  readonly #db: Db

  constructor(db: Db) {
    this.#db = db
  }

  async count(workspaceId: string, window: BilledCountWindow): Promise<UsageCount[]> {
    const bucket = sql<string>`substr(${sql.ref('b.billed_at')}, 1, ${sql.lit(BUCKET_LENGTH[window.granularity])})`
    const column = window.groupBy ? sql.ref(GROUP_COLUMNS[window.groupBy]) : undefined
    const rows = await this.#db.kysely
      .selectFrom('billed_renders as b')
      // billing rows stay countable even if their render record were gone, as GET /v1/account counts them
      .leftJoin('renders as r', 'r.id', 'b.render_id')
      .select([bucket.as('bucket'), (eb) => eb.fn.countAll<number | string>().as('n')])
      .$if(column !== undefined, (q) => q.select(sql<string | null>`${column}`.as('grp')).groupBy(column!))
      .where('b.workspace_id', '=', workspaceId)
      .where('b.billed_at', '>=', window.from)
      .where('b.billed_at', '<', window.to)
      // test renders are free and not counted in usage (SPEC 1.13); they are never billed, and this
      // keeps them out even then
      .where((eb) => eb.or([eb('r.test', 'is', null), eb('r.test', '=', 0)]))
      .groupBy(bucket)
      .execute()
    return rows.map((row) => ({
      bucket: row.bucket,
      group: (row as { grp?: string | null }).grp ?? null,
      renders: Number(row.n),
    }))
  }
}
