import { bootstrapFirstRun, firstRunBanner } from './first-run.ts'
import type { Config } from './kernel/config.ts'
import { createKernel, type Kernel } from './kernel/kernel.ts'
import type { ProcessRole } from './sdk/define-plugin.ts'

const SHUTDOWN_DEADLINE_MS = 15_000

/** Boots the kernel, then opens the port; SIGTERM/SIGINT close in reverse order. */
export async function startServer(config: Config, roles: ProcessRole[] = ['api', 'worker']): Promise<Kernel> {
  const kernel = await createKernel({ config, roles })
  const firstRun = await bootstrapFirstRun(kernel)
  if (roles.includes('api')) {
    await kernel.app.listen({ port: config.port, host: config.host })
  }
  if (firstRun) process.stdout.write(`${firstRunBanner(firstRun, config.publicUrl)}\n`)
  kernel.log.info({ mode: config.mode, roles, port: config.port }, 'docsvc started')

  const shutdown = (signal: string) => {
    kernel.log.info({ signal }, 'shutting down')
    const timer = setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS)
    timer.unref()
    kernel.close().then(
      () => process.exit(0),
      (err) => {
        kernel.log.error({ err }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  process.once('SIGINT', () => shutdown('SIGINT'))
  return kernel
}
