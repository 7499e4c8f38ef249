import { EventEmitter } from 'node:events'

/**
 * Sync renders wait here. A worker in this process announces a finish at once; a finish in
 * another process (cluster workers) is found by polling the render row.
 */
export class RenderCompletion {
  readonly #emitter = new EventEmitter()

  constructor() {
    this.#emitter.setMaxListeners(0)
  }

  notify(renderId: string): void {
    this.#emitter.emit(renderId)
  }

  /** true once `isFinished` says so, false when `timeoutMs` passes first. */
  wait(
    renderId: string,
    timeoutMs: number,
    isFinished: () => Promise<boolean>,
    pollMs = 250,
  ): Promise<boolean> {
    return new Promise((resolve) => {
      let done = false
      const finish = (value: boolean) => {
        if (done) return
        done = true
        clearTimeout(timer)
        clearInterval(poll)
        this.#emitter.off(renderId, onNotify)
        resolve(value)
      }
      const check = () =>
        isFinished().then(
          (finished) => finished && finish(true),
          () => {},
        )
      const onNotify = () => finish(true)
      this.#emitter.on(renderId, onNotify)
      const timer = setTimeout(() => finish(false), timeoutMs)
      const poll = setInterval(check, pollMs)
      void check()
    })
  }
}
