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
        const t0 = performance.now()
        await task(worker)
        latencies.push(performance.now() - t0)
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
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
