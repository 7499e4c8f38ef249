/**
 * `Promise.all(items.map(fn))` with at most `limit` calls running at once, results in input
 * order. After a failure no further call starts, and the first failure rejects once the calls
 * already running have ended (so a caller's cleanup sees everything they did).
 */
export async function mapWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  let failure: { error: unknown } | undefined
  const lane = async () => {
    while (!failure && next < items.length) {
      const index = next++
      try {
        results[index] = await fn(items[index] as T, index)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  if (failure) throw failure.error
  return results
}
