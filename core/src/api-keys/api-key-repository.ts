import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import { fromJson, toJson } from '../db/json-columns.ts'
import type { ApiKey } from './api-key.ts'
import type { ApiKeyTable } from './api-key-tables.ts'

function toApiKey(row: ApiKeyTable): ApiKey {
  return {
    ...row,
    scopes: fromJson<string[]>(row.scopes, []),
    ip_allowlist: fromJson<string[] | null>(row.ip_allowlist, null),
    template_allowlist: fromJson<string[] | null>(row.template_allowlist, null),
  }
}

function toRow(key: ApiKey): ApiKeyTable {
  return {
    ...key,
    scopes: toJson(key.scopes),
    ip_allowlist: key.ip_allowlist ? toJson(key.ip_allowlist) : null,
    template_allowlist: key.template_allowlist ? toJson(key.template_allowlist) : null,
  }
}

export interface KeyUsageDelta {
  keyId: string
  hour: string
  count: number
  lastUsedAt: string
  lastIp: string
}

export class ApiKeyRepository {
  readonly #db: Db
  constructor({ db }: { db: Db }) {
    this.#db = db
  }

  async insert(key: ApiKey): Promise<void> {
    await this.#db.kysely.insertInto('api_keys').values(toRow(key)).execute()
  }

  /** Marks `oldId` rolled to `successor` and stores it, unless the old key was rolled or revoked. */
  async insertRolled(oldId: string, successor: ApiKey, graceUntil: string): Promise<boolean> {
    return this.#db.kysely.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('api_keys')
        .set({ rolled_to: successor.id, grace_until: graceUntil })
        .where('id', '=', oldId)
        .where('rolled_to', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      if (Number(claimed.numUpdatedRows) !== 1) return false
      await trx.insertInto('api_keys').values(toRow(successor)).execute()
      return true
    })
  }

  async get(id: string): Promise<ApiKey | undefined> {
    const row = await this.#db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? toApiKey(row) : undefined
  }

  async listByWorkspace(workspaceId: string): Promise<ApiKey[]> {
    const rows = await this.#db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('id', 'desc')
      .execute()
    return rows.map(toApiKey)
  }

  async update(
    id: string,
    patch: Partial<Pick<ApiKey, 'revoked_at' | 'rolled_to' | 'grace_until'>>,
  ): Promise<void> {
    await this.#db.kysely.updateTable('api_keys').set(patch).where('id', '=', id).execute()
  }

  /** Adds buffered request counts and the newest use of each key. */
  async recordUsage(deltas: KeyUsageDelta[]): Promise<void> {
    if (deltas.length === 0) return
    await this.#db.kysely.transaction().execute(async (trx) => {
      for (const d of deltas) {
        await trx
          .insertInto('api_key_usage')
          .values({ key_id: d.keyId, hour: d.hour, count: d.count })
          .onConflict((oc) =>
            oc.columns(['key_id', 'hour']).doUpdateSet({ count: sql`api_key_usage.count + ${d.count}` }),
          )
          .execute()
        await trx
          .updateTable('api_keys')
          .set({ last_used_at: d.lastUsedAt, last_ip: d.lastIp })
          .where('id', '=', d.keyId)
          .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', d.lastUsedAt)]))
          .execute()
      }
    })
  }

  /** Request counts per key since each of the given hours (inclusive). */
  async requestCounts(keyIds: string[], sinceHours: string[]): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>()
    if (keyIds.length === 0) return out
    const oldest = [...sinceHours].sort()[0]!
    const rows = await this.#db.kysely
      .selectFrom('api_key_usage')
      .select(['key_id', 'hour', 'count'])
      .where('key_id', 'in', keyIds)
      .where('hour', '>=', oldest)
      .execute()
    for (const id of keyIds)
      out.set(
        id,
        sinceHours.map(() => 0),
      )
    for (const row of rows) {
      const counts = out.get(row.key_id)!
      sinceHours.forEach((since, i) => {
        if (row.hour >= since) counts[i] = (counts[i] ?? 0) + Number(row.count)
      })
    }
    return out
  }
}
