import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import './rate-limit-tables.ts'

export interface WindowCount {
  count: number
  /** ms timestamp when the window ends */
  resetAt: number
}

/** Fixed-window counters; the PostgreSQL store shares them between API processes. */
export interface RateLimitStore {
  hit(bucket: string, windowMs: number, now: number): Promise<WindowCount>
  /** the window's count without adding to it (a guard that counts only failures looks first) */
  peek(bucket: string, windowMs: number, now: number): Promise<WindowCount>
  close(): Promise<void>
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, { start: number; count: number }>()
  #sweptAt = 0

  async hit(bucket: string, windowMs: number, now: number): Promise<WindowCount> {
    const start = now - (now % windowMs)
    const current = this.#windows.get(bucket)
    const entry = current && current.start === start ? current : { start, count: 0 }
    entry.count += 1
    this.#windows.set(bucket, entry)
    if (now - this.#sweptAt > 60_000) this.#sweep(now)
    return { count: entry.count, resetAt: start + windowMs }
  }

  async peek(bucket: string, windowMs: number, now: number): Promise<WindowCount> {
    const start = now - (now % windowMs)
    const current = this.#windows.get(bucket)
    return { count: current?.start === start ? current.count : 0, resetAt: start + windowMs }
  }

  #sweep(now: number): void {
    this.#sweptAt = now
    for (const [bucket, w] of this.#windows) if (w.start < now - 3_600_000) this.#windows.delete(bucket)
  }

  async close(): Promise<void> {}
}

export class SqlRateLimitStore implements RateLimitStore {
  readonly #db: Db
  #sweptAt = 0
  constructor(db: Db) {
    this.#db = db
  }

  async hit(bucket: string, windowMs: number, now: number): Promise<WindowCount> {
    const start = now - (now % windowMs)
    const resetAt = start + windowMs
    const row = await this.#db.kysely
      .insertInto('rate_limit_counters')
      .values({ bucket: `${bucket}@${start}`, count: 1, expires_at: new Date(resetAt).toISOString() })
      .onConflict((oc) => oc.column('bucket').doUpdateSet({ count: sql`rate_limit_counters.count + 1` }))
      .returning('count')
      .executeTakeFirstOrThrow()
    if (now - this.#sweptAt > 60_000) {
      this.#sweptAt = now
      await this.#db.kysely
        .deleteFrom('rate_limit_counters')
        .where('expires_at', '<', new Date(now - 60_000).toISOString())
        .execute()
    }
    return { count: Number(row.count), resetAt }
  }

  async peek(bucket: string, windowMs: number, now: number): Promise<WindowCount> {
    const start = now - (now % windowMs)
    const row = await this.#db.kysely
      .selectFrom('rate_limit_counters')
      .select('count')
      .where('bucket', '=', `${bucket}@${start}`)
      .executeTakeFirst()
    return { count: Number(row?.count ?? 0), resetAt: start + windowMs }
  }

  async close(): Promise<void> {}
}
