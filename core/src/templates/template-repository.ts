import { type Kysely, sql } from 'kysely'
import type { Db } from '../db/database.ts'
import { fromJson, toFlag, toJson } from '../db/json-columns.ts'
import type { Database } from '../db/schema.ts'
import type { Template, TemplateDraft, TemplateType, TemplateVersion } from './template.ts'
import type { TemplateTable, TemplateVersionTable } from './template-tables.ts'

/**
 * Version numbers sit in a 32-bit integer column; PostgreSQL refuses a larger number in a query
 * (500) where SQLite compared it. A number the column cannot hold names no version, and as a
 * cursor ("before") it leaves every version in.
 */
const MAX_VERSION_NUMBER = 2_147_483_647
function storableNumber(n: number): boolean {
  return Number.isSafeInteger(n) && n <= MAX_VERSION_NUMBER
}

function toTemplate(row: TemplateTable): Template {
  return {
    ...row,
    type: row.type as TemplateType,
    draft: fromJson<TemplateDraft>(row.draft, { content: {}, data_schema: null, sample_data: null }),
    locked: row.locked === 1,
  }
}

function toVersion(row: TemplateVersionTable): TemplateVersion {
  return {
    ...row,
    content: fromJson<Record<string, unknown>>(row.content, {}),
    data_schema: fromJson<Record<string, unknown> | null>(row.data_schema, null),
    sample_data: fromJson<Record<string, unknown> | null>(row.sample_data, null),
  }
}

export interface TemplateListFilter {
  workspaceId: string
  q?: string
  type?: TemplateType
  /** only these ids (a key's template allowlist) */
  ids?: string[]
  /** id of the last template of the previous page (newest first) */
  before?: string
  limit: number
}

/** Templates and their versions; every read is scoped by workspace. */
export class TemplateRepository {
  readonly #db: Db
  constructor({ db }: { db: Db }) {
    this.#db = db
  }

  async insert(t: Template): Promise<void> {
    await this.#db.kysely
      .insertInto('templates')
      .values({ ...t, draft: toJson(t.draft), locked: toFlag(t.locked) })
      .execute()
  }

  /** Also finds templates in the trash (they answer 410, not 404). */
  async get(workspaceId: string, id: string): Promise<Template | undefined> {
    const row = await this.#db.kysely
      .selectFrom('templates')
      .selectAll()
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst()
    return row ? toTemplate(row) : undefined
  }

  /** Newest first, one more than `limit` to tell whether another page follows; trash left out. */
  async list(f: TemplateListFilter): Promise<Template[]> {
    let query = this.#db.kysely
      .selectFrom('templates')
      .selectAll()
      .where('workspace_id', '=', f.workspaceId)
      .where('deleted_at', 'is', null)
    if (f.type) query = query.where('type', '=', f.type)
    if (f.q) {
      const pattern = `%${f.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
      // one ESCAPE clause for both dialects (SQLite has no default escape character)
      query = query.where(
        sql<boolean>`(lower(name) like ${pattern} escape '\\' or lower(description) like ${pattern} escape '\\')`,
      )
    }
    if (f.ids) query = query.where('id', 'in', f.ids.length > 0 ? f.ids : [''])
    if (f.before) query = query.where('id', '<', f.before)
    const rows = await query
      .orderBy('id', 'desc')
      .limit(f.limit + 1)
      .execute()
    return rows.map(toTemplate)
  }

  /** Compare-and-set on the draft revision: false when another writer got there first. */
  async replaceDraft(id: string, revision: number, draft: TemplateDraft, at: string): Promise<boolean> {
    const result = await this.#db.kysely
      .updateTable('templates')
      .set({ draft: toJson(draft), draft_revision: revision + 1, updated_at: at })
      .where('id', '=', id)
      .where('draft_revision', '=', revision)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async update(
    id: string,
    patch: Partial<Pick<Template, 'live_version' | 'locked' | 'deleted_at' | 'name' | 'description'>>,
    at: string,
    writer: Kysely<Database> = this.#db.kysely,
  ): Promise<void> {
    const { locked, ...rest } = patch
    await writer
      .updateTable('templates')
      .set({ ...rest, ...(locked !== undefined ? { locked: toFlag(locked) } : {}), updated_at: at })
      .where('id', '=', id)
      .execute()
  }

  /**
   * Stores a new version numbered after the latest and makes it live, in the caller's transaction;
   * the number comes from the row itself so two publishes never share one.
   */
  async publish(
    trx: Kysely<Database>,
    template: Template,
    version: Omit<TemplateVersion, 'number'>,
  ): Promise<TemplateVersion> {
    const bumped = await trx
      .updateTable('templates')
      .set((eb) => ({ latest_version: eb('latest_version', '+', 1), updated_at: version.created_at }))
      .where('id', '=', template.id)
      .returning('latest_version')
      .executeTakeFirstOrThrow()
    const number = bumped.latest_version
    await trx
      .insertInto('template_versions')
      .values({
        ...version,
        number,
        content: toJson(version.content),
        data_schema: version.data_schema ? toJson(version.data_schema) : null,
        sample_data: version.sample_data ? toJson(version.sample_data) : null,
      })
      .execute()
    await trx.updateTable('templates').set({ live_version: number }).where('id', '=', template.id).execute()
    return { ...version, number }
  }

  /** By number or by `tv_` id. */
  async version(templateId: string, ref: number | string): Promise<TemplateVersion | undefined> {
    if (typeof ref === 'number' && !storableNumber(ref)) return undefined
    let query = this.#db.kysely
      .selectFrom('template_versions')
      .selectAll()
      .where('template_id', '=', templateId)
    query = typeof ref === 'number' ? query.where('number', '=', ref) : query.where('id', '=', ref)
    const row = await query.executeTakeFirst()
    return row ? toVersion(row) : undefined
  }

  /** Newest first; `before` is a version number. */
  async versions(templateId: string, limit: number, before?: number): Promise<TemplateVersion[]> {
    let query = this.#db.kysely
      .selectFrom('template_versions')
      .selectAll()
      .where('template_id', '=', templateId)
    if (before !== undefined && storableNumber(before)) query = query.where('number', '<', before)
    const rows = await query
      .orderBy('number', 'desc')
      .limit(limit + 1)
      .execute()
    return rows.map(toVersion)
  }

  /** Templates whose time in the trash is over. */
  async trashedBefore(cutoff: string, limit: number): Promise<{ id: string }[]> {
    return this.#db.kysely
      .selectFrom('templates')
      .select('id')
      .where('deleted_at', 'is not', null)
      .where('deleted_at', '<', cutoff)
      .limit(limit)
      .execute()
  }

  /** Removes a template with its versions and datasets for good. */
  async purge(id: string): Promise<void> {
    await this.#db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('template_datasets').where('template_id', '=', id).execute()
      await trx.deleteFrom('template_versions').where('template_id', '=', id).execute()
      await trx.deleteFrom('templates').where('id', '=', id).execute()
    })
  }
}
