import type { Logger } from 'pino'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { UploadRepository } from './upload-repository.ts'

/** Worker housekeeping: uploads past their 24 hours lose their file, then their row. */
export class UploadSweeper {
  readonly #uploads: UploadRepository
  readonly #files: FileStore
  readonly #log: Logger

  constructor(deps: { uploadRepository: UploadRepository; fileStore: FileStore; log: Logger }) {
    this.#uploads = deps.uploadRepository
    this.#files = deps.fileStore
    this.#log = deps.log
  }

  async sweep(now = new Date()): Promise<number> {
    let removed = 0
    for (;;) {
      const batch = await this.#uploads.expiredBefore(now.toISOString(), 100)
      for (const upload of batch) {
        // the file first: a row without a file is swept again, a file without a row never would be
        await this.#files.delete(upload.storage_key)
        await this.#uploads.delete(upload.id)
        removed++
      }
      if (batch.length < 100) return removed
    }
  }

  /** Sweeps every `intervalMs` until the returned function is called. */
  start(intervalMs = 300_000): () => Promise<void> {
    let running: Promise<unknown> = Promise.resolve()
    const timer = setInterval(() => {
      running = running
        .then(() => this.sweep())
        .catch((err) => this.#log.error({ err }, 'upload sweep failed'))
    }, intervalMs)
    timer.unref()
    return async () => {
      clearInterval(timer)
      await running
    }
  }
}
