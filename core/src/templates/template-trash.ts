import type { Logger } from 'pino'
import { PeriodicTask } from '../kernel/periodic-task.ts'
import { TRASH_DAYS } from './template.ts'
import type { TemplateRepository } from './template-repository.ts'

const DAY_MS = 24 * 3600 * 1000

/** Worker housekeeping: templates in the trash longer than 30 days are purged for good (SPEC 8). */
export class TemplateTrash {
  readonly #templates: TemplateRepository
  readonly #task: PeriodicTask

  constructor({ templateRepository, log }: { templateRepository: TemplateRepository; log: Logger }) {
    this.#templates = templateRepository
    this.#task = new PeriodicTask(() => this.sweep(), 'template trash sweep failed', log)
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

  /** Sweeps every `intervalMs` (default an hour) until stop(). */
  start(intervalMs = 3600_000): void {
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
