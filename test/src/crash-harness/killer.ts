import { seededRandom } from '../seeded-random.ts'
import type { ServiceProcess } from './service-process.ts'

// kill -9 at seeded moments: the same seed gives the same schedule (which process, when, how
// long it stays down), so a failing run is replayed with its seed (printed in the report).

export interface PlannedKill {
  /** ms after the load started */
  atMs: number
  target: string
  /** ms the process stays down before its restart */
  downMs: number
}

export interface KillPlanOptions {
  seed: number
  kills: number
  /** process names to choose from */
  targets: string[]
  /** kills fall in [fromMs, toMs) after the load started */
  fromMs: number
  toMs: number
  /** the longest a killed process stays down */
  maxDownMs?: number
}

/** Every target is killed at least once when there are kills enough; the rest are drawn. */
export function planKills(options: KillPlanOptions): PlannedKill[] {
  const random = seededRandom(options.seed)
  const targets = Array.from({ length: options.kills }, (_, i) =>
    i < options.targets.length ? (options.targets[i] as string) : random.pick(options.targets),
  )
  // shuffled, so the guaranteed ones do not always come first
  for (let i = targets.length - 1; i > 0; i--) {
    const j = random.int(0, i)
    ;[targets[i], targets[j]] = [targets[j] as string, targets[i] as string]
  }
  // one kill in each equal slot of the window, at a drawn moment: spread over the whole load
  const slot = (options.toMs - options.fromMs) / targets.length
  const times = targets.map((_, i) => {
    const from = Math.round(options.fromMs + i * slot)
    return random.int(from, Math.max(from, Math.round(from + slot) - 1))
  })
  return times.map((atMs, i) => ({
    atMs,
    target: targets[i] as string,
    downMs: random.int(0, options.maxDownMs ?? 500),
  }))
}

export interface KillRecord extends PlannedKill {
  /** ms after the load started that it ran again */
  restartedAtMs: number
}

/**
 * Runs the plan against the processes: at each moment (or once the previous restart is done, if
 * later) kill -9 the target, wait its down time, start it again and wait until it runs.
 */
export async function runKills(
  plan: PlannedKill[],
  processes: ServiceProcess[],
  startedAt: number,
): Promise<KillRecord[]> {
  const done: KillRecord[] = []
  for (const kill of plan) {
    const wait = startedAt + kill.atMs - Date.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    const target = processes.find((p) => p.spec.name === kill.target)
    if (!target) throw new Error(`no process ${kill.target} to kill`)
    await target.kill()
    if (kill.downMs > 0) await new Promise((resolve) => setTimeout(resolve, kill.downMs))
    await target.start()
    done.push({ ...kill, restartedAtMs: Date.now() - startedAt })
  }
  return done
}
