import { type AddressInfo, isIP } from 'node:net'
import { createKernel, type Kernel } from './composition/create-kernel.ts'
import { bootstrapFirstRun, firstRunBanner, firstRunJson } from './first-run.ts'
import type { Config } from './kernel/config.ts'
import { SHUTDOWN_DEADLINE_MS } from './kernel/shutdown.ts'
import { installProcessGuards } from './process-guards.ts'
import type { ProcessRole } from './sdk/define-plugin.ts'

/** the kernel stops in order within SHUTDOWN_DEADLINE_MS; past this margin something hangs */
const HARD_EXIT_MARGIN_MS = 5_000

export interface StartOptions {
  /** print the first-run keys as one JSON line instead of the text banner */
  json?: boolean
}

/**
 * Boots the kernel, then opens the port (api role); SIGTERM/SIGINT close in reverse order.
 * A worker-only process opens no port and stays up until signalled.
 */
export async function startServer(
  config: Config,
  roles: ProcessRole[] = ['api', 'worker'],
  options: StartOptions = {},
): Promise<Kernel> {
  const kernel = await createKernel({ config, roles })
  const api = roles.includes('api')
  let url: string | undefined
  let keepAlive: NodeJS.Timeout | undefined
  // handlers first: a supervisor (or a test) that stops us as soon as we print must find them
  const shutdown = (signal: string) => {
    kernel.log.info({ signal }, 'shutting down')
    clearInterval(keepAlive)
    const timer = setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS + HARD_EXIT_MARGIN_MS)
    timer.unref()
    kernel.close(SHUTDOWN_DEADLINE_MS).then(
      () => {
        kernel.log.info('stopped')
        // stopped in good order, but for a reason a supervisor must see
        process.exit(signal === 'uncaughtException' ? 1 : 0)
      },
      (err) => {
        kernel.log.error({ err }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  // a repeated SIGTERM (supervisor and process group both) waits for the first shutdown;
  // a second Ctrl-C means "now"
  let stopping = false
  const onSignal = (signal: string) => {
    if (stopping) {
      if (signal === 'SIGINT') process.exit(130)
      return
    }
    stopping = true
    shutdown(signal)
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)
  const removeGuards = installProcessGuards(kernel.log, onSignal)
  try {
    if (api) {
      await kernel.app.listen({ port: config.port, host: config.host })
      url = reachableBaseUrl(config, kernel.app.server.address())
      // after listen: keys made on a port that then fails to open would never be shown
      const firstRun = await bootstrapFirstRun(kernel)
      if (firstRun) {
        const text = options.json ? firstRunJson(firstRun, url) : firstRunBanner(firstRun, url)
        process.stdout.write(`${text}\n`)
      }
    }
  } catch (err) {
    process.off('SIGTERM', onSignal)
    process.off('SIGINT', onSignal)
    removeGuards()
    await kernel.close().catch(() => {})
    throw err
  }
  // nothing else holds the event loop open in a worker-only process yet
  if (!api) keepAlive = setInterval(() => {}, 1 << 30)
  kernel.log.info({ mode: config.mode, roles, ...(url ? { url } : {}) }, 'docsvc started')
  return kernel
}

/**
 * Where a client on this machine reaches the API: the configured public URL, or (when that is
 * the default) localhost on the port actually bound, which differs from config with port 0.
 */
export function reachableBaseUrl(config: Config, address: AddressInfo | string | null): string {
  if (config.publicUrl !== `http://localhost:${config.port}` || !address || typeof address === 'string') {
    return config.publicUrl
  }
  const wildcard = config.host === '' || config.host === '0.0.0.0' || config.host === '::'
  const host = wildcard ? 'localhost' : isIP(config.host) === 6 ? `[${config.host}]` : config.host
  return `http://${host}:${address.port}`
}
