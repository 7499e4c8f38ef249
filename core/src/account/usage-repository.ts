import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import type { GroupBy, UsageWindow } from './usage-query.ts'

/** Billed renders of one bucket (and one group value, when grouped). */
export interface UsageCount {
  /** `YYYY-MM-DD` for day buckets, `YYYY-MM-DDTHH` for hour buckets */
  bucket: string
  group: string | null
  renders: number
}

// Columns a usage series can be grouped by; region is the installation's own (config.region), so
// it needs no column.
const GROUP_COLUMNS: Record<Exclude<GroupBy, 'region'>, string> = {
  key_id: 'r.key_id',
  kind: 'b.kind',
  source: 'r.source',
  template_id: 'r.template_id',
}

/** The prefix length of an ISO 8601 `billed_at` that names its bucket. */
const BUCKET_LENGTH = { day: 10, hour: 13 } as const

/**
 * Counts billed renders per bucket (and group) with one query that SQLite and PostgreSQL both run:
 * timestamps are ISO 8601 UTC text, so a bucket is a prefix of `billed_at`.
 */
export class UsageRepository {
  readonly #db: Db

  constructor(db: Db) {
    this.#db = db
  }

  async count(workspaceId: string, window: UsageWindow): Promise<UsageCount[]> {
    const bucket = sql<string>`substr(${sql.ref('b.billed_at')}, 1, ${sql.lit(BUCKET_LENGTH[window.granularity])})`
    const column =
      window.groupBy && window.groupBy !== 'region' ? sql.ref(GROUP_COLUMNS[window.groupBy]) : undefined
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
