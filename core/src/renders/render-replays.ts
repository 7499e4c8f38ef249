import { readStoredFile } from '../files/read-stored-file.ts'
import type { ReplayPointer, StoredResponse } from '../idempotency/idempotency-store.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { RenderFile } from './render.ts'
import type { RenderRepository } from './render-repository.ts'

/**
 * Idempotent replays of answers that carried a render's files (binary, base64): the idempotency
 * row holds the answer without the bytes, and they are read again from the render's stored
 * files. A render that keeps no copy (zero retention, `hosted: false`) or whose files were purged
 * or expired has nothing to replay: 410 `file_expired`, with the render's id
 * (docs/decisions/0027-renders-at-rest.md).
 */
export class RenderReplays {
  readonly #renders: RenderRepository
  readonly #store: FileStore

  constructor(deps: { renderRepository: RenderRepository; fileStore: FileStore }) {
    this.#renders = deps.renderRepository
    this.#store = deps.fileStore
  }

  readonly rebuild = async (
    scope: { workspaceId: string },
    stored: StoredResponse & { replay: ReplayPointer },
  ): Promise<StoredResponse> => {
    const renderId = stored.replay.render_id
    // by workspace only: a preview made with a live key is a test render of the same workspace
    const found = await this.#renders.getById(renderId)
    const render = found?.workspace_id === scope.workspaceId ? found : undefined
    const gone = () =>
      new ProblemError(
        'file_expired',
        `This Idempotency-Key answered with the file of render ${renderId}; that file is no longer kept (zero retention, hosted: false, purged or expired), so it cannot be sent again. GET /v1/renders/${renderId} shows the render.`,
        { render_id: renderId },
      )
    if (render?.status !== 'succeeded') throw gone()
    const files = await this.#renders.files(render.id)
    const read = async (file: RenderFile) => {
      const found = file.deleted_at ? undefined : await readStoredFile(this.#store, file.storage_key)
      if (!found) throw gone()
      return found
    }
    if (stored.replay.delivery === 'binary') {
      const [file] = files
      if (!file) throw gone()
      return { status: stored.status, headers: stored.headers, body: await read(file) }
    }
    // base64: the stored record lists its files without `data`; each gets its bytes back
    const record = JSON.parse(stored.body.toString('utf8')) as { files?: { id: string }[] }
    const listed = new Map(files.map((f) => [f.id, f]))
    const withData = []
    for (const view of record.files ?? []) {
      const file = listed.get(view.id)
      if (!file) throw gone()
      withData.push({ ...view, data: (await read(file)).toString('base64') })
    }
    return {
      status: stored.status,
      headers: stored.headers,
      body: Buffer.from(JSON.stringify({ ...record, files: withData })),
    }
  }
}
