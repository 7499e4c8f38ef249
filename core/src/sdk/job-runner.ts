import type { Job, JobHandler } from './queue-contracts.ts'

// The worker loop of one work() call, shared by every queue backend: claims up to `concurrency`
// jobs, runs the handler, settles each job through its source. The backend decides how jobs are
// stored and claimed.

export interface ClaimedJob extends Job {
  /** the lease: past it the handler's signal is aborted and the job may be claimed again */
  timeoutSeconds: number
}

export interface JobSource<J extends ClaimedJob> {
  /** claims at most `limit` jobs for this worker, atomically */
  claim(limit: number): Promise<J[]> | J[]
  complete(job: J): Promise<void> | void
  /** one attempt failed: retried while attempts remain, failed for good after */
  fail(job: J, error: unknown): Promise<void> | void
}

/** setTimeout fires at once past this (about 24.8 days) */
const MAX_TIMER_MS = 2 ** 31 - 1

interface Running<J> {
  job: J
  controller: AbortController
  /** given up by stop(): settling it is no longer this runner's business */
  abandoned: boolean
  done: Promise<void>
}

export class JobRunner<J extends ClaimedJob> {
  readonly #source: JobSource<J>
  readonly #concurrency: number
  readonly #handler: JobHandler
  readonly #onError: (err: unknown) => void
  readonly #running = new Set<Running<J>>()
  #stopping = false
  #pump: Promise<void> | undefined
  #again = false

  constructor(options: {
    source: JobSource<J>
    concurrency: number
    handler: JobHandler
    onError: (err: unknown) => void
  }) {
    this.#source = options.source
    this.#concurrency = Math.max(1, Math.floor(options.concurrency))
    this.#handler = options.handler
    this.#onError = options.onError
  }

  /** Looks for jobs now; called on send, on a notification, on the poll tick, when a slot frees. */
  wake(): void {
    if (this.#stopping) return
    if (this.#pump) {
      this.#again = true
      return
    }
    this.#pump = this.#claimAndRun().finally(() => {
      this.#pump = undefined
      // a wake that came after the last look
      if (this.#again) this.wake()
    })
  }

  async #claimAndRun(): Promise<void> {
    try {
      do {
        this.#again = false
        while (!this.#stopping && this.#running.size < this.#concurrency) {
          const limit = this.#concurrency - this.#running.size
          const jobs = await this.#source.claim(limit)
          for (const job of jobs) this.#run(job)
          // fewer than asked: nothing more is ready (a send meanwhile sets #again)
          if (jobs.length < limit) break
        }
      } while (this.#again && !this.#stopping)
    } catch (err) {
      // the next poll tries again; a broken store must not spin
      this.#onError(err)
    }
  }

  #run(job: J): void {
    const controller = new AbortController()
    const entry = { job, controller, abandoned: false } as Running<J>
    // the lease runs out: another worker may take the job, so this one should stop
    const lease = setTimeout(
      () => controller.abort(new Error(`job ${job.id} ran past its ${job.timeoutSeconds}s timeout`)),
      Math.min(job.timeoutSeconds * 1000, MAX_TIMER_MS),
    )
    entry.done = (async () => {
      let failure: { error: unknown } | undefined
      try {
        await this.#handler(job, controller.signal)
      } catch (error) {
        failure = { error }
      }
      clearTimeout(lease)
      if (entry.abandoned) return
      try {
        if (failure) await this.#source.fail(job, failure.error)
        else await this.#source.complete(job)
      } catch (err) {
        // the lease runs out and the job is tried again: nothing is lost
        this.#onError(err)
      }
    })().finally(() => {
      this.#running.delete(entry)
      this.wake()
    })
    this.#running.add(entry)
  }

  /** Claims no more; waits for running handlers up to the deadline, then fails and aborts the rest. */
  async stop(deadlineMs: number): Promise<void> {
    this.#stopping = true
    // a claim in flight still hands its jobs over: they are waited for like the others
    await this.#pump
    const pending = [...this.#running]
    if (pending.length === 0) return
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), deadlineMs)
    })
    const finished = Promise.all(pending.map((entry) => entry.done)).then(() => 'done' as const)
    const outcome = await Promise.race([finished, deadline])
    clearTimeout(timer)
    if (outcome === 'done') return
    for (const entry of this.#running) {
      entry.abandoned = true
      // failed before the abort, so the attempt counts and the job is retried elsewhere
      try {
        await this.#source.fail(entry.job, new Error('worker stopped while the job was running'))
      } catch (err) {
        this.#onError(err)
      }
      entry.controller.abort(new Error('worker stopped'))
    }
  }
}
