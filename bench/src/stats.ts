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
  return summarize(latencies, (performance.now() - started) / 1000)
}

/** Percentiles of latencies (ms) taken over `seconds`. */
export function summarize(latencies: number[], seconds: number): RunStats {
  const sorted = [...latencies].sort((a, b) => a - b)
  return {
    count: sorted.length,
    seconds,
    perSecond: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  }
}
