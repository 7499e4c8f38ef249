import type { Db } from '../db/database.ts'
import { toFlag } from '../db/json-columns.ts'
import type { Upload } from './upload.ts'
import type { UploadTable } from './upload-tables.ts'

function toUpload(row: UploadTable): Upload {
  return { ...row, test: row.test === 1 }
}

export class UploadRepository {
  readonly #db: Db

  constructor({ db }: { db: Db }) {
    this.#db = db
  }

  async insert(upload: Upload): Promise<void> {
    await this.#db.kysely
      .insertInto('uploads')
      .values({ ...upload, test: toFlag(upload.test) })
      .execute()
  }

  /** The workspace's uploads of that mode among `ids`, leaving out the missing and expired. */
  async findLive(workspaceId: string, test: boolean, ids: string[], now: string): Promise<Upload[]> {
    if (ids.length === 0) return []
    const rows = await this.#db.kysely
      .selectFrom('uploads')
      .selectAll()
      .where('id', 'in', ids)
      .where('workspace_id', '=', workspaceId)
      .where('test', '=', toFlag(test))
      .where('expires_at', '>', now)
      .execute()
    return rows.map(toUpload)
  }

  async expiredBefore(now: string, limit: number): Promise<Upload[]> {
    const rows = await this.#db.kysely
      .selectFrom('uploads')
      .selectAll()
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute()
    return rows.map(toUpload)
  }

  async delete(id: string): Promise<void> {
    await this.#db.kysely.deleteFrom('uploads').where('id', '=', id).execute()
  }
}
