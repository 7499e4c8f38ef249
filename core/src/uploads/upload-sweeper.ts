import type { Logger } from 'pino'
import { PeriodicTask } from '../kernel/periodic-task.ts'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { UploadRepository } from './upload-repository.ts'

/** Worker housekeeping: uploads past their 24 hours lose their file, then their row. */
export class UploadSweeper {
  readonly #uploads: UploadRepository
  readonly #files: FileStore
  readonly #task: PeriodicTask

  constructor(deps: { uploadRepository: UploadRepository; fileStore: FileStore; log: Logger }) {
    this.#uploads = deps.uploadRepository
    this.#files = deps.fileStore
    this.#task = new PeriodicTask(() => this.sweep(), 'upload sweep failed', deps.log)
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

  /** Sweeps every `intervalMs` (default 5 minutes) until stop(). */
  start(intervalMs = 300_000): void {
    this.#task.start(intervalMs)
  }

  stop(): Promise<void> {
    return this.#task.stop()
  }

  /** true between start() and stop() */
  get running(): boolean {
    return this.#task.running
  }
}
