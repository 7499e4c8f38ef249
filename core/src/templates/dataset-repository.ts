import type { Db } from '../db/database.ts'
import { fromJson, toFlag, toJson } from '../db/json-columns.ts'
import type { TemplateDataset } from './template.ts'
import type { TemplateDatasetTable } from './template-tables.ts'

function toDataset(row: TemplateDatasetTable): TemplateDataset {
  return { ...row, data: fromJson<Record<string, unknown>>(row.data, {}), is_default: row.is_default === 1 }
}

/** Named sample data of a template; at most one is the default. */
export class DatasetRepository {
  readonly #db: Db
  constructor({ db }: { db: Db }) {
    this.#db = db
  }

  async list(templateId: string): Promise<TemplateDataset[]> {
    const rows = await this.#db.kysely
      .selectFrom('template_datasets')
      .selectAll()
      .where('template_id', '=', templateId)
      .orderBy('id', 'desc')
      .execute()
    return rows.map(toDataset)
  }

  async get(templateId: string, id: string): Promise<TemplateDataset | undefined> {
    const row = await this.#db.kysely
      .selectFrom('template_datasets')
      .selectAll()
      .where('template_id', '=', templateId)
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? toDataset(row) : undefined
  }

  async default(templateId: string): Promise<TemplateDataset | undefined> {
    const row = await this.#db.kysely
      .selectFrom('template_datasets')
      .selectAll()
      .where('template_id', '=', templateId)
      .where('is_default', '=', 1)
      .executeTakeFirst()
    return row ? toDataset(row) : undefined
  }

  /** Inserts or updates; a default dataset takes the flag from the previous one in the same step. */
  async save(dataset: TemplateDataset, isNew: boolean): Promise<void> {
    const row = { ...dataset, data: toJson(dataset.data), is_default: toFlag(dataset.is_default) }
    await this.#db.kysely.transaction().execute(async (trx) => {
      if (dataset.is_default) {
        await trx
          .updateTable('template_datasets')
          .set({ is_default: 0 })
          .where('template_id', '=', dataset.template_id)
          .where('id', '!=', dataset.id)
          .execute()
      }
      if (isNew) await trx.insertInto('template_datasets').values(row).execute()
      else await trx.updateTable('template_datasets').set(row).where('id', '=', dataset.id).execute()
    })
  }

  async delete(templateId: string, id: string): Promise<void> {
    await this.#db.kysely
      .deleteFrom('template_datasets')
      .where('template_id', '=', templateId)
      .where('id', '=', id)
      .execute()
  }
}
