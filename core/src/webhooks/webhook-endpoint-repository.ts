import type { Kysely, Updateable } from 'kysely'
import type { Db } from '../db/database.ts'
import { toFlag, toJson } from '../db/json-columns.ts'
import type { Database } from '../db/schema.ts'
import { endpointFromRow, type WebhookEndpoint } from './webhook-endpoint.ts'
import type { WebhookEndpointTable } from './webhook-tables.ts'

export type EndpointChanges = Partial<
  Pick<
    WebhookEndpoint,
    | 'url'
    | 'description'
    | 'events'
    | 'template_ids'
    | 'headers'
    | 'is_default'
    | 'enabled'
    | 'secret'
    | 'previous_secret'
    | 'previous_secret_expires_at'
    | 'failing_since'
    | 'disabled_reason'
    | 'disabled_at'
  >
>

function changesToRow(changes: EndpointChanges): Updateable<WebhookEndpointTable> {
  const row: Updateable<WebhookEndpointTable> = {}
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue
    if (key === 'events' || key === 'headers') row[key] = toJson(value)
    else if (key === 'template_ids') row.template_ids = value === null ? null : toJson(value)
    else if (key === 'is_default' || key === 'enabled') row[key] = toFlag(value as boolean)
    else (row as Record<string, unknown>)[key] = value
  }
  return row
}

/** Webhook endpoints, always scoped by workspace and mode (DESIGN.md §5). */
export class WebhookEndpointRepository {
  readonly #db: Db

  constructor({ db }: { db: Db }) {
    this.#db = db
  }

  /** Inserts the endpoint; a new default takes the place of the previous one, in one transaction. */
  async insert(endpoint: WebhookEndpoint): Promise<void> {
    await this.#db.kysely.transaction().execute(async (trx) => {
      if (endpoint.is_default) await clearDefault(trx, endpoint.workspace_id, endpoint.test, endpoint.id)
      await trx
        .insertInto('webhook_endpoints')
        .values({
          ...endpoint,
          test: toFlag(endpoint.test),
          events: toJson(endpoint.events),
          template_ids: endpoint.template_ids === null ? null : toJson(endpoint.template_ids),
          headers: toJson(endpoint.headers),
          is_default: toFlag(endpoint.is_default),
          enabled: toFlag(endpoint.enabled),
        })
        .execute()
    })
  }

  async get(workspaceId: string, test: boolean, id: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.#db.kysely
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('test', '=', toFlag(test))
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? endpointFromRow(row) : undefined
  }

  async getById(id: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.#db.kysely
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? endpointFromRow(row) : undefined
  }

  /** The workspace's enabled default endpoint in this mode, if any. */
  async enabledDefault(workspaceId: string, test: boolean): Promise<WebhookEndpoint | undefined> {
    const row = await this.#db.kysely
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('test', '=', toFlag(test))
      .where('is_default', '=', 1)
      .where('enabled', '=', 1)
      .executeTakeFirst()
    return row ? endpointFromRow(row) : undefined
  }

  /** Every endpoint of the workspace in this mode, oldest first (SPEC 2.2: one page). */
  async list(workspaceId: string, test: boolean): Promise<WebhookEndpoint[]> {
    const rows = await this.#db.kysely
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('test', '=', toFlag(test))
      .orderBy('id')
      .execute()
    return rows.map(endpointFromRow)
  }

  /** Enabled endpoints of these workspaces, both modes: the candidates of a dispatch pass (in its transaction). */
  async enabledIn(
    workspaceIds: readonly string[],
    reader: Kysely<Database> = this.#db.kysely,
  ): Promise<WebhookEndpoint[]> {
    if (workspaceIds.length === 0) return []
    const rows = await reader
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('workspace_id', 'in', [...workspaceIds])
      .where('enabled', '=', 1)
      .execute()
    return rows.map(endpointFromRow)
  }

  async update(endpoint: WebhookEndpoint, changes: EndpointChanges, now: string): Promise<void> {
    await this.#db.kysely.transaction().execute(async (trx) => {
      if (changes.is_default === true)
        await clearDefault(trx, endpoint.workspace_id, endpoint.test, endpoint.id)
      await trx
        .updateTable('webhook_endpoints')
        .set({ ...changesToRow(changes), updated_at: now })
        .where('id', '=', endpoint.id)
        .execute()
    })
  }

  /** Deletes the endpoint; its deliveries still to attempt stop, their log stays (SPEC 3). */
  async delete(endpoint: WebhookEndpoint, now: string): Promise<void> {
    await this.#db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('webhook_endpoints').where('id', '=', endpoint.id).execute()
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status: 'failed',
          next_attempt_at: null,
          due_at: null,
          error: 'endpoint deleted',
          updated_at: now,
        })
        .where('endpoint_id', '=', endpoint.id)
        .where('status', 'in', ['pending', 'failed'])
        .where('next_attempt_at', 'is not', null)
        .execute()
    })
  }

  /** Ends a run of failures. */
  async recordSuccess(id: string): Promise<void> {
    await this.#db.kysely
      .updateTable('webhook_endpoints')
      .set({ failing_since: null })
      .where('id', '=', id)
      .where('failing_since', 'is not', null)
      .execute()
  }

  /**
   * Notes a failed attempt; the endpoint is switched off once its failures have lasted
   * `disableAfterMs` without a success. True when this call switched it off.
   */
  async recordFailure(id: string, at: Date, disableAfterMs: number): Promise<boolean> {
    const now = at.toISOString()
    await this.#db.kysely
      .updateTable('webhook_endpoints')
      .set({ failing_since: now })
      .where('id', '=', id)
      .where('failing_since', 'is', null)
      .execute()
    const res = await this.#db.kysely
      .updateTable('webhook_endpoints')
      .set({ enabled: 0, disabled_reason: 'failing', disabled_at: now, updated_at: now })
      .where('id', '=', id)
      .where('enabled', '=', 1)
      .where('failing_since', '<=', new Date(at.getTime() - disableAfterMs).toISOString())
      .executeTakeFirst()
    return Number(res.numUpdatedRows) > 0
  }

  /** Endpoints the service switched off for failing, newest first (the operator's list). */
  async autoDisabled(): Promise<WebhookEndpoint[]> {
    const rows = await this.#db.kysely
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('disabled_reason', '=', 'failing')
      .where('enabled', '=', 0)
      .orderBy('disabled_at', 'desc')
      .execute()
    return rows.map(endpointFromRow)
  }
}

async function clearDefault(trx: Kysely<Database>, workspaceId: string, test: boolean, exceptId: string) {
  await trx
    .updateTable('webhook_endpoints')
    .set({ is_default: 0 })
    .where('workspace_id', '=', workspaceId)
    .where('test', '=', toFlag(test))
    .where('is_default', '=', 1)
    .where('id', '!=', exceptId)
    .execute()
}
