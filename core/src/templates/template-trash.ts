import type { Logger } from 'pino'
import { TRASH_DAYS } from './template.ts'
import type { TemplateRepository } from './template-repository.ts'

const DAY_MS = 24 * 3600 * 1000

/** Worker housekeeping: templates in the trash longer than 30 days are purged for good (SPEC 8). */
export class TemplateTrash {
  readonly #templates: TemplateRepository
  readonly #log: Logger

  constructor({ templateRepository, log }: { templateRepository: TemplateRepository; log: Logger }) {
    this.#templates = templateRepository
    this.#log = log
  }

  async sweep(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - TRASH_DAYS * DAY_MS).toISOString()
    let purged = 0
    for (const { id } of await this.#templates.trashedBefore(cutoff, 100)) {
      await this.#templates.purge(id)
      purged++
    }
    return purged
  }

  /** Sweeps every `intervalMs` until the returned function is called. */
  start(intervalMs = 3600_000): () => Promise<void> {
    let running: Promise<unknown> = Promise.resolve()
    const timer = setInterval(() => {
      running = running
        .then(() => this.sweep())
        .catch((err) => this.#log.error({ err }, 'template trash sweep failed'))
    }, intervalMs)
    timer.unref()
    return async () => {
      clearInterval(timer)
      await running
    }
  }
}
