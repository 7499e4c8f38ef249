export interface RunStats {
  count: number
  seconds: number
  perSecond: number
  p50: number
  p95: number
  p99: number
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
}

/** Runs `task` `total` times with `concurrency` in flight; latencies in ms. `before` is not timed. */
export async function measure(
  total: number,
  concurrency: number,
  task: (worker: number) => Promise<void>,
  before: () => void = () => {},
): Promise<RunStats> {
  const latencies: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < total) {
        next++
        before()
        latencies.push(await timed(() => task(worker)))
      }
    }),
  )
  return statsOf(latencies, (performance.now() - started) / 1000)
}

export interface Side {
  task: () => Promise<void>
  /** not timed */
  before?: () => void
}

/**
 * Runs the sides one after the other, `total` rounds, one at a time: a slow spell of a shared
 * machine falls on each side alike, so a side is compared with its baseline of the same moment.
 */
export async function measureInTurn(total: number, sides: Side[]): Promise<RunStats[]> {
  const latencies = sides.map(() => [] as number[])
  for (let round = 0; round < total; round++) {
    for (const [i, side] of sides.entries()) {
      side.before?.()
      latencies[i]?.push(await timed(side.task))
    }
  }
  // a side's seconds are its own runs' only
  return latencies.map((l) => statsOf(l, l.reduce((sum, ms) => sum + ms, 0) / 1000))
}

async function timed(task: () => Promise<void>): Promise<number> {
  const t0 = performance.now()
  await task()
  return performance.now() - t0
}

function statsOf(latencies: number[], seconds: number): RunStats {
  latencies.sort((a, b) => a - b)
  return {
    count: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  }
}
