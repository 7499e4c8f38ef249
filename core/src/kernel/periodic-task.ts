import type { Logger } from 'pino'

/**
 * A housekeeping job run every `intervalMs`, one run at a time, from start() until stop(). Each
 * instance holds its own timer, so two kernels in one process never stop each other's.
 */
export class PeriodicTask {
  readonly #run: () => Promise<unknown>
  readonly #failure: string
  readonly #log: Logger
  /** set while the timer runs */
  #stop: (() => Promise<void>) | undefined

  /** `failure` is the log message of a run that throws (the next run still comes) */
  constructor(run: () => Promise<unknown>, failure: string, log: Logger) {
    this.#run = run
    this.#failure = failure
    this.#log = log
  }

  /** A second start() while running changes nothing. */
  start(intervalMs: number): void {
    if (this.#stop) return
    let running: Promise<unknown> = Promise.resolve()
    const timer = setInterval(() => {
      running = running.then(this.#run).catch((err) => this.#log.error({ err }, this.#failure))
    }, intervalMs)
    timer.unref()
    this.#stop = async () => {
      clearInterval(timer)
      this.#stop = undefined
      await running
    }
  }

  /** Stops the timer and waits for a run under way; nothing when not running. */
  async stop(): Promise<void> {
    await this.#stop?.()
  }

  /** true between start() and stop() */
  get running(): boolean {
    return this.#stop !== undefined
  }
}
