// Messages between a WorkerPool and its threads. Everything is structured-cloned (or moved, for
// the ArrayBuffers of a transfer list): errors travel as plain data, never as Error objects.

export interface TaskMessage {
  id: number
  /** file URL of the task module; its default export runs the task */
  module: string
  input: unknown
}

/** An error thrown by a task, as data; a ProblemError keeps its code, detail and extras. */
export interface TaskFailure {
  name: string
  message: string
  problem?: { code: string; detail: string | undefined; extras: Record<string, unknown> }
}

export type TaskReply = { id: number; value: unknown } | { id: number; failure: TaskFailure }

/** A thread's first message: it has loaded and takes tasks. */
export const THREAD_READY = 'ready'

/** What a task returns to have its ArrayBuffers moved to the caller instead of copied. */
export const TRANSFER = Symbol.for('docsvc.worker-pool.transfer')

export interface Transferring<T> {
  readonly [TRANSFER]: ArrayBuffer[]
  readonly value: T
}

/**
 * A task's result whose buffers move to the caller's thread (no copy; they are unusable in the
 * worker afterwards). Use it for the output bytes of a task.
 */
export function transferring<T>(value: T, buffers: ArrayBuffer[]): T {
  return { [TRANSFER]: buffers, value } as Transferring<T> as unknown as T
}

export function isTransferring(value: unknown): value is Transferring<unknown> {
  return typeof value === 'object' && value !== null && TRANSFER in value
}
