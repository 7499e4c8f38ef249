import type { LifecycleContext, PluginLogger, ProcessRole } from '../../sdk/define-plugin.ts'
import type { AnyManifest } from './plugin-import.ts'

export interface Startable {
  manifest: AnyManifest
  /** how messages name it: 'plugin' or 'feature' */
  noun: string
  context(roles: ProcessRole[]): LifecycleContext<never>
}

/**
 * start() in order; when one fails, the ones already started are stopped (reverse order) so a
 * failed boot leaves no timers or connections behind, then the failure is thrown.
 */
export async function startAll(
  plugins: Startable[],
  roles: ProcessRole[],
  started: Startable[],
  log: PluginLogger,
  makeError: (message: string) => Error,
): Promise<void> {
  for (const p of plugins) {
    try {
      await p.manifest.start?.(p.context(roles))
    } catch (err) {
      await stopAll(started, roles, 10_000, log)
      throw makeError(`${p.noun} ${p.manifest.id} failed to start: ${(err as Error).message}`)
    }
    started.push(p)
  }
}

/**
 * stop() in reverse start order, each within the deadline. A stop that fails or overruns is
 * logged and the next plugin is stopped anyway: shutdown must reach the end.
 */
export async function stopAll(
  started: Startable[],
  roles: ProcessRole[],
  deadlineMs: number,
  log: PluginLogger,
): Promise<void> {
  for (const p of [...started].reverse()) {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(resolve, deadlineMs, 'timeout')
    })
    // async wrapper: a stop() that throws synchronously is a failure like a rejected one
    const stopping = (async () => p.manifest.stop?.(p.context(roles)))().then(() => 'stopped' as const)
    const outcome = await Promise.race([stopping, timeout]).catch((err: unknown) => err)
    clearTimeout(timer)
    if (outcome === 'timeout') log.warn(`${p.noun} ${p.manifest.id} did not stop within ${deadlineMs} ms`)
    else if (outcome !== 'stopped')
      log.error(
        `${p.noun} ${p.manifest.id} failed to stop: ${(outcome as Error)?.message ?? String(outcome)}`,
      )
  }
  started.length = 0
}
