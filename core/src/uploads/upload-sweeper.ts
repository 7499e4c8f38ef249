import type { Logger } from 'pino'
import type { FileStore } from '../sdk/file-contracts.ts'
import type { UploadRepository } from './upload-repository.ts'

/** Worker housekeeping: uploads past their 24 hours lose their file, then their row. */
export class UploadSweeper {
  readonly #uploads: UploadRepository
  readonly #files: FileStore
  readonly #log: Logger
  /** set while the timer runs */
  #stop: (() => Promise<void>) | undefined

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

  /** Sweeps every `intervalMs` until stop(); a second start() while running changes nothing. */
  start(intervalMs = 300_000): void {
    if (this.#stop) return
    let running: Promise<unknown> = Promise.resolve()
    const timer = setInterval(() => {
      running = running
        .then(() => this.sweep())
        .catch((err) => this.#log.error({ err }, 'upload sweep failed'))
    }, intervalMs)
    timer.unref()
    this.#stop = async () => {
      clearInterval(timer)
      this.#stop = undefined
      await running
    }
  }

  /** Stops the timer started by start() and waits for a sweep under way; nothing when stopped. */
  async stop(): Promise<void> {
    await this.#stop?.()
  }

  /** true between start() and stop() */
  get running(): boolean {
    return this.#stop !== undefined
  }
}
