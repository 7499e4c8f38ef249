import type { Logger } from 'pino'

/**
 * The last line for errors no code path caught, in a serving process. Node's default ends the
 * process on a promise rejection nobody handled: one forgotten `.catch` on a path a tenant can
 * reach would then take down every render in flight, for every workspace, again and again. Such
 * a rejection leaves no half-run synchronous code behind, so it is logged and the process goes
 * on. An uncaught exception may have stopped code half-way through changing shared state: it is
 * logged and the process stops the ordinary way (`stop`), so its supervisor starts a clean one
 * and the queue hands unfinished jobs to it.
 */
export function installProcessGuards(log: Logger, stop: (reason: string) => void): () => void {
  const onRejection = (reason: unknown) => {
    log.error({ err: reason }, 'a promise was rejected and nothing handled it; serving on')
  }
  const onException = (err: Error, origin: string) => {
    log.fatal({ err, origin }, 'an exception was not caught; stopping')
    stop('uncaughtException')
  }
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  return () => {
    process.off('unhandledRejection', onRejection)
    process.off('uncaughtException', onException)
  }
}
