import type { Db } from '../db/database.ts'
import { fromJson, toJson } from '../db/json-columns.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import './idempotency-tables.ts'

export const REPLAY_WINDOW_MS = 24 * 3600 * 1000
/** an in-progress claim older than this belongs to a process that died; it may be taken over */
const STALE_CLAIM_MS = 15 * 60 * 1000
/** how often one process deletes expired rows, so keys never reused again do not pile up */
const PURGE_EVERY_MS = 10 * 60 * 1000

/**
 * A response whose body is a render's files is not stored with them: the row keeps this pointer
 * (and the body without the bytes), and a replay reads the files again (render-replays.ts).
 */
export interface ReplayPointer {
  render_id: string
  delivery: 'binary' | 'base64'
}

export interface StoredResponse {
  status: number
  headers: Record<string, string>
  body: Buffer
  replay?: ReplayPointer
}

export type IdempotencyStart = { kind: 'claimed' } | { kind: 'replay'; response: StoredResponse }

/**
 * SPEC 4.1.3 on the database, so it holds across API processes: the first request claims the
 * key, the response is stored for 24 hours and replayed; the same key with another body is 422,
 * and while the first request runs a second one gets 409.
 */
export class IdempotencyStore {
  readonly #db: Db
  #purgedAt = 0
  constructor({ db }: { db: Db }) {
    this.#db = db
  }

  async start(
    workspaceId: string,
    key: string,
    fingerprint: string,
    now = new Date(),
  ): Promise<IdempotencyStart> {
    if (now.getTime() - this.#purgedAt > PURGE_EVERY_MS) {
      this.#purgedAt = now.getTime()
      await this.purgeExpired(now)
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed = await this.#db.kysely
        .insertInto('idempotency_keys')
        .values({
          workspace_id: workspaceId,
          key,
          fingerprint,
          state: 'in_progress',
          status_code: null,
          headers: null,
          body: null,
          replay: null,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + REPLAY_WINDOW_MS).toISOString(),
        })
        .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst()
      if (claimed) return { kind: 'claimed' }

      const row = await this.#db.kysely
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('key', '=', key)
        .executeTakeFirst()
      if (!row) continue
      const expired = row.expires_at <= now.toISOString()
      const stale = row.state === 'in_progress' && Date.parse(row.created_at) < now.getTime() - STALE_CLAIM_MS
      if (expired || stale) {
        await this.#remove(workspaceId, key, row.created_at)
        continue
      }
      if (row.fingerprint !== fingerprint) {
        throw new ProblemError(
          'idempotency_key_reused',
          'This Idempotency-Key was used with a different request; use a new key for a new request.',
        )
      }
      if (row.state === 'in_progress') {
        throw new ProblemError(
          'idempotency_in_progress',
          'A request with this Idempotency-Key is still running.',
          {
            headers: { 'Retry-After': '1' },
          },
        )
      }
      const replay = fromJson<ReplayPointer | null>(row.replay, null)
      return {
        kind: 'replay',
        response: {
          status: row.status_code ?? 200,
          headers: fromJson<Record<string, string>>(row.headers, {}),
          body: Buffer.from(row.body ?? Buffer.alloc(0)),
          ...(replay ? { replay } : {}),
        },
      }
    }
    throw new ProblemError('idempotency_in_progress', 'The Idempotency-Key is contended; retry shortly.')
  }

  async complete(workspaceId: string, key: string, response: StoredResponse): Promise<void> {
    await this.#db.kysely
      .updateTable('idempotency_keys')
      .set({
        state: 'done',
        status_code: response.status,
        headers: toJson(response.headers),
        body: response.body,
        replay: response.replay ? toJson(response.replay) : null,
      })
      .where('workspace_id', '=', workspaceId)
      .where('key', '=', key)
      .execute()
  }

  /** Lets the client retry with the same key (the request failed on our side). */
  async release(workspaceId: string, key: string): Promise<void> {
    await this.#db.kysely
      .deleteFrom('idempotency_keys')
      .where('workspace_id', '=', workspaceId)
      .where('key', '=', key)
      .where('state', '=', 'in_progress')
      .execute()
  }

  async purgeExpired(now = new Date()): Promise<number> {
    const result = await this.#db.kysely
      .deleteFrom('idempotency_keys')
      .where('expires_at', '<=', now.toISOString())
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  }

  async #remove(workspaceId: string, key: string, createdAt: string): Promise<void> {
    await this.#db.kysely
      .deleteFrom('idempotency_keys')
      .where('workspace_id', '=', workspaceId)
      .where('key', '=', key)
      .where('created_at', '=', createdAt)
      .execute()
  }
}
