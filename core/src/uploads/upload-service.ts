import { createReadStream } from 'node:fs'
import type { AuthContext } from '../api-keys/api-key-service.ts'
import { newId } from '../kernel/ids.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { WorkspaceScope } from '../workspaces/workspace-scope.ts'
import { UPLOAD_LIFETIME_MS, type Upload } from './upload.ts'
import type { SpooledUpload } from './upload-receiver.ts'
import type { UploadRepository } from './upload-repository.ts'

/** Whose uploads: one workspace, in live or test mode. */
export type UploadOwner = WorkspaceScope

export class UploadService {
  readonly #uploads: UploadRepository
  readonly #files: FileStore

  constructor(deps: { uploadRepository: UploadRepository; fileStore: FileStore }) {
    this.#uploads = deps.uploadRepository
    this.#files = deps.fileStore
  }

  /** Moves a received file into the file store and records it for 24 hours. */
  async create(auth: AuthContext, spooled: SpooledUpload, now = new Date()): Promise<Upload> {
    const id = newId('upload')
    const key = `${auth.workspace.id}/uploads/${id}`
    await this.#files.putStream(key, createReadStream(spooled.path), spooled.size, spooled.type)
    const upload: Upload = {
      id,
      workspace_id: auth.workspace.id,
      test: auth.test,
      filename: spooled.filename,
      content_type: spooled.type,
      size: spooled.size,
      sha256: spooled.sha256,
      storage_key: key,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + UPLOAD_LIFETIME_MS).toISOString(),
    }
    try {
      await this.#uploads.insert(upload)
    } catch (err) {
      await this.#files.delete(key).catch(() => {})
      throw err
    }
    return upload
  }

  /** The caller's upload (same workspace and mode); 404 upload_not_found when missing or expired. */
  async get(auth: UploadOwner, id: string, now = new Date()): Promise<Upload> {
    const upload = (await this.liveMany(auth, [id], now)).get(id)
    if (!upload) throw uploadNotFound(id)
    return upload
  }

  /** Several at once (a merge names up to 200), by id; the missing and expired are left out. */
  async liveMany(auth: UploadOwner, ids: string[], now = new Date()): Promise<Map<string, Upload>> {
    const found = await this.#uploads.findLive(
      auth.workspaceId,
      auth.test,
      [...new Set(ids)],
      now.toISOString(),
    )
    return new Map(found.map((u) => [u.id, u]))
  }
}

export function uploadNotFound(id: string): ProblemError {
  return new ProblemError('upload_not_found', `No upload ${id}, or it expired (uploads are kept 24 hours).`)
}
