import type { Kysely } from 'kysely'
import type { Db } from '../db/database.ts'
import { fromJson, nowIso, toFlag, toJson } from '../db/json-columns.ts'
import type { Database } from '../db/schema.ts'
import { DEFAULT_WORKSPACE_SETTINGS, type Workspace, type WorkspaceStatus } from './workspace.ts'
import type { WorkspaceTable } from './workspace-tables.ts'

function toWorkspace(row: WorkspaceTable): Workspace {
  return {
    id: row.id,
    name: row.name,
    plan_id: row.plan_id,
    status: row.status,
    ip_allowlist: fromJson<string[] | null>(row.ip_allowlist, null),
    email_check_waived: row.email_check_waived === 1,
    settings: { ...DEFAULT_WORKSPACE_SETTINGS, ...fromJson(row.settings, {}) },
    regions: fromJson<string[]>(row.regions, []),
    created_at: row.created_at,
  }
}

export class WorkspaceRepository {
  readonly #db: Db
  constructor({ db }: { db: Db }) {
    this.#db = db
  }

  /** `db`: a transaction the write belongs to (the free workspace limit's, decision 0099) */
  async insert(ws: Workspace, db: Kysely<Database> = this.#db.kysely): Promise<void> {
    await db
      .insertInto('workspaces')
      .values({
        id: ws.id,
        name: ws.name,
        plan_id: ws.plan_id,
        status: ws.status,
        ip_allowlist: ws.ip_allowlist ? toJson(ws.ip_allowlist) : null,
        email_check_waived: toFlag(ws.email_check_waived),
        settings: toJson(ws.settings),
        regions: toJson(ws.regions),
        created_at: ws.created_at,
        updated_at: ws.created_at,
      })
      .execute()
  }

  async get(id: string, db: Kysely<Database> = this.#db.kysely): Promise<Workspace | undefined> {
    const row = await db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst()
    return row ? toWorkspace(row) : undefined
  }

  async list(): Promise<Workspace[]> {
    const rows = await this.#db.kysely.selectFrom('workspaces').selectAll().orderBy('id').execute()
    return rows.map(toWorkspace)
  }

  /** those of `ids` whose workspace is on `planId` */
  async onPlan(ids: string[], planId: string, db: Kysely<Database> = this.#db.kysely): Promise<string[]> {
    if (ids.length === 0) return []
    const rows = await db
      .selectFrom('workspaces')
      .select('id')
      .where('id', 'in', ids)
      .where('plan_id', '=', planId)
      .execute()
    return rows.map((r) => r.id)
  }

  async count(): Promise<number> {
    const row = await this.#db.kysely
      .selectFrom('workspaces')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  async update(
    id: string,
    patch: Partial<
      Pick<
        Workspace,
        'name' | 'plan_id' | 'status' | 'ip_allowlist' | 'email_check_waived' | 'settings' | 'regions'
      >
    >,
    db: Kysely<Database> = this.#db.kysely,
  ): Promise<void> {
    const set: Partial<WorkspaceTable> = { updated_at: nowIso() }
    if (patch.name !== undefined) set.name = patch.name
    if (patch.plan_id !== undefined) set.plan_id = patch.plan_id
    if (patch.status !== undefined) set.status = patch.status as WorkspaceStatus
    if (patch.ip_allowlist !== undefined)
      set.ip_allowlist = patch.ip_allowlist ? toJson(patch.ip_allowlist) : null
    if (patch.email_check_waived !== undefined) set.email_check_waived = toFlag(patch.email_check_waived)
    if (patch.settings !== undefined) set.settings = toJson(patch.settings)
    if (patch.regions !== undefined) set.regions = toJson(patch.regions)
    await db.updateTable('workspaces').set(set).where('id', '=', id).execute()
  }
}
