/** What a stop may take in all: a supervisor (systemd, Kubernetes) kills the process not long after. */
export const SHUTDOWN_DEADLINE_MS = 15_000
/** the part of it the requests in flight (sync renders waiting for their job) may use */
const DRAIN_SHARE = 0.6
/** the queue always gets this long to settle its running jobs, even past a drain that ran out */
const MIN_QUEUE_STOP_MS = 1_000
/** how often a keep-alive connection whose request is answered is closed during the drain */
const IDLE_SWEEP_MS = 50

/** The part of an HTTP server a stop needs (a Fastify app is one); the kernel itself has none. */
export interface HttpFrontDoor {
  close(): Promise<unknown>
  server: { closeIdleConnections(): void; closeAllConnections(): void }
}

export interface ShutdownSteps {
  /** absent in a process without the api module (worker, admin CLI) */
  app?: HttpFrontDoor
  /** no more jobs claimed; running ones get up to `deadlineMs`, then are failed for a retry elsewhere */
  stopWorkers(deadlineMs: number): Promise<void>
  /** plugins, container, database: nothing may use them any more */
  release(): Promise<void>
}

/**
 * Stops in the order in-flight work needs (docs/decisions/0028):
 * 1. HTTP stops accepting; requests in flight go on. A sync render waits for its job, which this
 *    process's workers may be running, so the queue keeps working meanwhile, up to a share of the
 *    deadline.
 * 2. The workers stop: no new job; running jobs get the rest of the deadline, then are failed back
 *    to the queue (another worker retries them, sooner than a lapsed lease would).
 * 3. Connections still open (a sync render longer than the deadline) are closed: the client sees
 *    the connection end and finds its render by id; the render is not lost.
 * 4. Plugins, container and database go last, once nothing uses them.
 */
export async function shutDown(steps: ShutdownSteps, deadlineMs = SHUTDOWN_DEADLINE_MS): Promise<void> {
  const started = Date.now()
  const { app } = steps
  const httpClosed = app?.close() ?? Promise.resolve()
  // a connection kept alive after its answer would hold the close until the client drops it
  const idleSweep = setInterval(() => app?.server.closeIdleConnections(), IDLE_SWEEP_MS)
  await settledWithin(httpClosed, deadlineMs * DRAIN_SHARE)
  clearInterval(idleSweep)
  const left = deadlineMs - (Date.now() - started)
  await steps.stopWorkers(Math.max(MIN_QUEUE_STOP_MS, left))
  app?.server.closeAllConnections()
  await httpClosed
  await steps.release()
}

async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms)
  })
  await Promise.race([promise.then(noop, noop), late])
  clearTimeout(timer)
}

function noop() {}
