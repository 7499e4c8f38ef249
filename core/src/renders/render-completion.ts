import { EventEmitter } from 'node:events'
import type { RenderRecordView } from './render-events.ts'

/** A finish: with the record a worker of this process wrote, which spares the waiter a read. */
export interface RenderFinish {
  record?: RenderRecordView
}

/**
 * Sync renders wait here. A worker in this process announces a finish at once; a finish in
 * another process (cluster workers) is found by polling the render row.
 */
export class RenderCompletion {
  readonly #emitter = new EventEmitter()

  constructor() {
    this.#emitter.setMaxListeners(0)
  }

  notify(renderId: string, finish: RenderFinish = {}): void {
    this.#emitter.emit(renderId, finish)
  }

  /** The finish once `isFinished` says so or a worker announces it; undefined when `timeoutMs` passes first. */
  wait(
    renderId: string,
    timeoutMs: number,
    isFinished: () => Promise<boolean>,
    pollMs = 250,
  ): Promise<RenderFinish | undefined> {
    return new Promise((resolve) => {
      let done = false
      const finish = (value: RenderFinish | undefined) => {
        if (done) return
        done = true
        clearTimeout(timer)
        clearInterval(poll)
        this.#emitter.off(renderId, onNotify)
        resolve(value)
      }
      const check = () =>
        isFinished().then(
          (finished) => finished && finish({}),
          () => {},
        )
      const onNotify = (announced: RenderFinish) => finish(announced)
      this.#emitter.on(renderId, onNotify)
      const timer = setTimeout(() => finish(undefined), timeoutMs)
      const poll = setInterval(check, pollMs)
      void check()
    })
  }
}
