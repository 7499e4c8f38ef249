import { Worker } from 'node:worker_threads'
import { type LiquidJob, type LiquidReply, WORKER_READY } from './liquid-worker-protocol.ts'

export interface LiquidWorkerPoolOptions {
  /** worker threads kept warm; each evaluates one template at a time */
  size: number
  /** heap of each worker (V8 old generation), in MB: the hard memory budget of a template */
  heapMb: number
}

interface Pending {
  job: LiquidJob
  resolve: (reply: LiquidReply) => void
  reject: (err: Error) => void
}

interface Slot {
  worker: Worker
  ready: boolean
  current?: { pending: Pending; timer: NodeJS.Timeout } | undefined
}

// liquidjs' cooperative time check gets the first chance to end a slow render cleanly, so the
// thread is terminated a moment after the budget rather than exactly at it
const KILL_GRACE_MS = 25

/**
 * Warm worker threads evaluating Liquid jobs, one at a time per thread, in arrival order. A job
 * past its time budget (`renderMs`) or its worker's heap budget gets the thread terminated and
 * answers template_fuel_exhausted; a fresh thread takes the dead one's place.
 */
export class LiquidWorkerPool {
  readonly #options: LiquidWorkerPoolOptions
  readonly #slots = new Set<Slot>()
  readonly #queue: Pending[] = []
  #nextId = 1
  #closed = false

  constructor(options: LiquidWorkerPoolOptions) {
    this.#options = options
  }

  run(job: Omit<LiquidJob, 'id'>): Promise<LiquidReply> {
    if (this.#closed) return Promise.reject(new Error('Liquid worker pool is closed'))
    return new Promise((resolve, reject) => {
      this.#queue.push({ job: { ...job, id: this.#nextId++ }, resolve, reject })
      this.#fill()
      this.#dispatch()
    })
  }

  /** Starts the threads now, so that the first template does not pay for their start. */
  warm(): void {
    if (!this.#closed) this.#fill()
  }

  /** Terminates every thread; jobs still waiting fail. */
  async close(): Promise<void> {
    this.#closed = true
    for (const pending of this.#queue.splice(0)) pending.reject(new Error('Liquid worker pool closed'))
    await Promise.all([...this.#slots].map((slot) => this.#retire(slot)))
  }

  #fill(): void {
    while (this.#slots.size < this.#options.size) this.#spawn()
  }

  #spawn(): void {
    const { heapMb } = this.#options
    const worker = new Worker(new URL('./liquid-worker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(16, heapMb) },
    })
    const slot: Slot = { worker, ready: false }
    this.#slots.add(slot)
    // an idle pool must not keep the process alive; a busy thread does (see #dispatch)
    worker.unref()
    worker.on('message', (message: LiquidReply | typeof WORKER_READY) => {
      if (message === WORKER_READY) {
        slot.ready = true
        this.#dispatch()
      } else this.#finish(slot, message)
    })
    worker.on('error', (err) => this.#died(slot, err))
    worker.on('exit', (code) => this.#died(slot, new Error(`Liquid worker exited with code ${code}`)))
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) return
      if (!slot.ready || slot.current) continue
      const pending = this.#queue.shift()!
      const timer = setTimeout(() => this.#timedOut(slot), pending.job.renderMs + KILL_GRACE_MS)
      slot.current = { pending, timer }
      slot.worker.ref()
      try {
        slot.worker.postMessage(pending.job)
      } catch (err) {
        // data that cannot be structured-cloned (functions, symbols) is the caller's mistake
        this.#release(slot)
        pending.reject(err as Error)
      }
    }
  }

  #finish(slot: Slot, reply: LiquidReply): void {
    const current = slot.current
    if (!current || current.pending.job.id !== reply.id) return
    this.#release(slot)
    current.pending.resolve(reply)
    this.#dispatch()
  }

  #release(slot: Slot): void {
    if (slot.current) clearTimeout(slot.current.timer)
    slot.current = undefined
    slot.worker.unref()
  }

  #timedOut(slot: Slot): void {
    const pending = slot.current?.pending
    if (!pending) return
    this.#release(slot)
    this.#replace(slot)
    const message = `Template exceeded its time budget of ${pending.job.renderMs} ms.`
    pending.resolve(exhausted(pending.job, message))
  }

  #died(slot: Slot, err: Error): void {
    if (!this.#slots.has(slot)) return
    const pending = slot.current?.pending
    const startupFailed = !slot.ready
    this.#release(slot)
    this.#replace(slot, !startupFailed)
    if (pending && (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      const message = `Template exceeded its memory budget of ${this.#options.heapMb} MB.`
      pending.resolve(exhausted(pending.job, message))
    } else if (pending) {
      pending.reject(err)
    } else if (startupFailed && ![...this.#slots].some((other) => other.ready)) {
      // threads that cannot start will not start on retry either: fail what waits, spawn later
      for (const waiting of this.#queue.splice(0)) waiting.reject(err)
    }
  }

  /** Takes a slot's thread out of service and, unless closing, puts a fresh one in its place. */
  #replace(slot: Slot, respawn = true): void {
    void this.#retire(slot)
    if (respawn && !this.#closed) this.#fill()
    this.#dispatch()
  }

  /** Terminates a slot's thread; a job still running on it fails. */
  async #retire(slot: Slot): Promise<void> {
    this.#slots.delete(slot)
    const pending = slot.current?.pending
    this.#release(slot)
    pending?.reject(new Error('Liquid worker pool closed'))
    await slot.worker.terminate()
  }
}

function exhausted(job: LiquidJob, message: string): LiquidReply {
  return { id: job.id, error: { code: 'template_fuel_exhausted', message } }
}
