import { ProblemError } from '@docsvc/core/sdk'

interface Waiter {
  grant(): void
}

/** Bounded concurrency in FIFO order; a waiter leaves the queue when aborted or past its deadline. */
export class RenderSlots {
  readonly #limit: number
  #busy = 0
  readonly #queue: Waiter[] = []

  constructor(limit: number) {
    this.#limit = limit
  }

  get busy(): number {
    return this.#busy
  }

  get waiting(): number {
    return this.#queue.length
  }

  /** Resolves with a release function once a slot is free. */
  acquire(signal: AbortSignal, deadline: number): Promise<() => void> {
    if (signal.aborted) return Promise.reject(canceled())
    if (this.#busy < this.#limit) {
      this.#busy++
      return Promise.resolve(this.#releaser())
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => leave(new ProblemError('render_failed', 'no browser slot became free before the time limit')),
        Math.max(0, deadline - Date.now()),
      )
      const onAbort = () => leave(canceled())
      const cleanup = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
      }
      const waiter: Waiter = {
        grant: () => {
          cleanup()
          resolve(this.#releaser())
        },
      }
      const leave = (err: Error) => {
        cleanup()
        const at = this.#queue.indexOf(waiter)
        if (at >= 0) this.#queue.splice(at, 1)
        reject(err)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.#queue.push(waiter)
    })
  }

  #releaser(): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.#queue.shift()
      // the slot passes straight to the next waiter, so busy stays the same
      if (next) next.grant()
      else this.#busy--
    }
  }
}

export function canceled(): ProblemError {
  return new ProblemError('render_canceled', 'the render was canceled')
}
