import { Worker } from 'node:worker_threads'
import type { ProblemCode } from '../problem-codes.ts'
import { ProblemError } from '../problem-error.ts'
import {
  WorkerCrashed,
  WorkerMemoryBudgetExceeded,
  WorkerPoolClosed,
  WorkerTimeBudgetExceeded,
} from './worker-pool-errors.ts'
import { type TaskReply, THREAD_READY } from './worker-pool-protocol.ts'

export interface WorkerPoolOptions {
  /** names the pool in errors and logs, e.g. `liquid`, `pdf` */
  name: string
  /** threads kept; each runs one task at a time, the rest wait in arrival order */
  size: number
  /** each thread's V8 heap (old generation), in MB: a hard limit that V8 enforces */
  heapMb: number
  /**
   * memory outside the V8 heap (ArrayBuffers: a PDF's inflated streams) a task may hold, in MB;
   * watched while a task runs, since V8 does not count it against the heap. Default: heapMb.
   */
  buffersMb?: number
  /** the problem code of a task that runs past its time or memory budget (a task may name its own) */
  budgetCode: ProblemCode
}

export interface WorkerTask {
  /** the task module (a file URL): its default export takes `input` and returns the result */
  module: URL
  /** structured-cloned into the thread, except the ArrayBuffers in `transfer`, which move */
  input: unknown
  /** buffers to move instead of copy: unusable in the caller afterwards (see exclusiveBuffer) */
  transfer?: ArrayBuffer[]
  /** the task's time budget, counted from the moment a thread takes it */
  timeMs: number
  /** extra time before the thread is terminated (a cooperative check inside the task may end it first) */
  graceMs?: number
  /** what errors name, e.g. `Template`, `Reading the PDF` (default: `The task`) */
  subject?: string
  /** the problem code of this task's budget errors, instead of the pool's */
  budgetCode?: ProblemCode
  /** aborting fails the task with the signal's reason; a running task's thread is terminated */
  signal?: AbortSignal
}

interface Pending {
  id: number
  task: WorkerTask
  resolve: (value: unknown) => void
  reject: (err: unknown) => void
  onAbort?: () => void
}

interface Slot {
  worker: Worker
  ready: boolean
  current?: { pending: Pending; timer: NodeJS.Timeout; watch: NodeJS.Timeout } | undefined
}

const MB = 1024 * 1024
// how often a running task's memory outside the heap is read (an interrupt, microseconds each)
const WATCH_MS = 25

/**
 * Warm worker threads with a memory budget (V8 heap limit, ArrayBuffers watched) and a time
 * budget per task. A task past either gets its thread terminated and fails with a typed error
 * (WorkerTimeBudgetExceeded, WorkerMemoryBudgetExceeded); a fresh thread takes the dead one's
 * place, so the next task runs as usual. Threads are general: a task names the module that runs
 * it, loaded once per thread. See docs/decisions/0025-killable-worker-pool.md.
 */
export class WorkerPool {
  readonly #options: WorkerPoolOptions
  readonly #slots = new Set<Slot>()
  readonly #queue: Pending[] = []
  #nextId = 1
  #closed = false

  constructor(options: WorkerPoolOptions) {
    this.#options = options
  }

  get name(): string {
    return this.#options.name
  }

  /** Runs a task in a thread; resolves with what its module returned. */
  run<T>(task: WorkerTask): Promise<T> {
    if (this.#closed) return Promise.reject(new WorkerPoolClosed(this.#options.name))
    if (task.signal?.aborted) return Promise.reject(task.signal.reason)
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = { id: this.#nextId++, task, resolve: resolve as (v: unknown) => void, reject }
      if (task.signal) {
        const signal = task.signal
        pending.onAbort = () => this.#abort(pending, signal.reason)
        signal.addEventListener('abort', pending.onAbort, { once: true })
      }
      this.#queue.push(pending)
      this.#fill()
      this.#dispatch()
    })
  }

  /** Starts the threads now, so that the first task does not pay for their start. */
  warm(): void {
    if (!this.#closed) this.#fill()
  }

  /** Terminates every thread; tasks waiting or running fail with WorkerPoolClosed. */
  async close(): Promise<void> {
    this.#closed = true
    for (const pending of this.#queue.splice(0)) this.#settle(pending, new WorkerPoolClosed(this.name))
    await Promise.all([...this.#slots].map((slot) => this.#retire(slot)))
  }

  #fill(): void {
    while (this.#slots.size < this.#options.size) this.#spawn()
  }

  #spawn(): void {
    const { heapMb } = this.#options
    const worker = new Worker(new URL('./worker-thread.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(16, heapMb) },
    })
    const slot: Slot = { worker, ready: false }
    this.#slots.add(slot)
    // an idle pool must not keep the process alive; a busy thread does (see #dispatch)
    worker.unref()
    worker.on('message', (message: TaskReply | typeof THREAD_READY) => {
      if (message === THREAD_READY) {
        slot.ready = true
        this.#dispatch()
      } else this.#finish(slot, message)
    })
    worker.on('error', (err) => this.#died(slot, err))
    worker.on('exit', (code) => this.#died(slot, new Error(`exited with code ${code}`)))
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) return
      if (!slot.ready || slot.current) continue
      const pending = this.#queue.shift()!
      const { task } = pending
      const timer = setTimeout(() => this.#overrun(slot, 'time'), task.timeMs + (task.graceMs ?? 0))
      const watch = setInterval(() => this.#watchMemory(slot, pending), WATCH_MS)
      slot.current = { pending, timer, watch }
      slot.worker.ref()
      try {
        slot.worker.postMessage(
          { id: pending.id, module: task.module.href, input: task.input },
          task.transfer ?? [],
        )
      } catch (err) {
        // input that cannot be structured-cloned (functions, symbols) is the caller's mistake
        this.#release(slot)
        this.#settle(pending, err)
      }
    }
  }

  #finish(slot: Slot, reply: TaskReply): void {
    const pending = slot.current?.pending
    if (!pending || pending.id !== reply.id) return
    this.#release(slot)
    if ('failure' in reply) {
      const { failure } = reply
      const err = failure.problem
        ? new ProblemError(
            failure.problem.code as ProblemCode,
            failure.problem.detail,
            failure.problem.extras,
          )
        : Object.assign(new Error(failure.message), { name: failure.name })
      this.#settle(pending, err)
    } else this.#settle(pending, undefined, reply.value)
    this.#dispatch()
  }

  #watchMemory(slot: Slot, pending: Pending): void {
    const limit = (this.#options.buffersMb ?? this.#options.heapMb) * MB
    slot.worker.getHeapStatistics().then(
      (stats) => {
        if (slot.current?.pending === pending && stats.external_memory > limit) this.#overrun(slot, 'buffers')
      },
      // the thread is gone meanwhile: its exit is handled
      () => {},
    )
  }

  #overrun(slot: Slot, budget: 'time' | 'buffers'): void {
    const pending = slot.current?.pending
    if (!pending) return
    this.#release(slot)
    this.#replace(slot)
    this.#settle(pending, this.#budgetError(pending.task, budget))
  }

  /** The error of a budget overrun: time, the V8 heap, or the memory outside it. */
  #budgetError(task: WorkerTask, budget: 'time' | 'heap' | 'buffers'): ProblemError {
    const subject = task.subject ?? 'The task'
    const { heapMb, buffersMb } = this.#options
    const budgetCode = task.budgetCode ?? this.#options.budgetCode
    if (budget === 'time') return new WorkerTimeBudgetExceeded(budgetCode, subject, task.timeMs)
    return new WorkerMemoryBudgetExceeded(
      budgetCode,
      subject,
      budget === 'heap' ? heapMb : (buffersMb ?? heapMb),
    )
  }

  #abort(pending: Pending, reason: unknown): void {
    const queued = this.#queue.indexOf(pending)
    if (queued !== -1) this.#queue.splice(queued, 1)
    for (const slot of this.#slots) {
      if (slot.current?.pending !== pending) continue
      // synchronous work cannot be interrupted: the thread goes, a fresh one takes its place
      this.#release(slot)
      this.#replace(slot)
    }
    this.#settle(pending, reason)
  }

  #died(slot: Slot, err: Error): void {
    if (!this.#slots.has(slot)) return
    const pending = slot.current?.pending
    const startupFailed = !slot.ready
    this.#release(slot)
    this.#replace(slot, !startupFailed)
    if (pending && (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      this.#settle(pending, this.#budgetError(pending.task, 'heap'))
    } else if (pending) {
      this.#settle(pending, new WorkerCrashed(this.name, err.message))
    } else if (startupFailed && ![...this.#slots].some((other) => other.ready)) {
      // threads that cannot start will not start on retry either: fail what waits, spawn later
      for (const waiting of this.#queue.splice(0))
        this.#settle(waiting, new WorkerCrashed(this.name, err.message))
    }
  }

  #settle(pending: Pending, err: unknown, value?: unknown): void {
    if (pending.onAbort) pending.task.signal?.removeEventListener('abort', pending.onAbort)
    if (err !== undefined) pending.reject(err)
    else pending.resolve(value)
  }

  #release(slot: Slot): void {
    if (slot.current) {
      clearTimeout(slot.current.timer)
      clearInterval(slot.current.watch)
    }
    slot.current = undefined
    slot.worker.unref()
  }

  /** Takes a slot's thread out of service and, unless closing, puts a fresh one in its place. */
  #replace(slot: Slot, respawn = true): void {
    void this.#retire(slot)
    if (respawn && !this.#closed) this.#fill()
    this.#dispatch()
  }

  /** Terminates a slot's thread; a task still running on it fails with WorkerPoolClosed. */
  async #retire(slot: Slot): Promise<void> {
    this.#slots.delete(slot)
    const pending = slot.current?.pending
    this.#release(slot)
    if (pending) this.#settle(pending, new WorkerPoolClosed(this.name))
    await slot.worker.terminate()
  }
}

/**
 * The ArrayBuffer of `bytes` when moving it to a thread is safe: the view covers all of it (a
 * small Buffer is a slice of Node's shared pool, which must never be moved). Empty otherwise, and
 * the bytes are copied. The caller must not use `bytes` after a task took its buffer.
 */
export function exclusiveBuffer(bytes: Uint8Array): ArrayBuffer[] {
  const { buffer } = bytes
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength
    ? [buffer]
    : []
}
