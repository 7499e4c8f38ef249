/**
 * A least-recently-used map bounded by entry count and by total weight (e.g. characters of
 * template source), so a worker's caches cannot grow into its heap budget.
 */
export class BoundedLru<K, V> {
  readonly #entries = new Map<K, { value: V; weight: number }>()
  readonly #maxEntries: number
  readonly #maxWeight: number
  #weight = 0

  constructor(maxEntries: number, maxWeight = Number.POSITIVE_INFINITY) {
    this.#maxEntries = maxEntries
    this.#maxWeight = maxWeight
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    // re-inserting moves the key to the young end of the Map's insertion order
    this.#entries.delete(key)
    this.#entries.set(key, entry)
    return entry.value
  }

  /** Stores `value`, evicting the oldest entries past the bounds; too heavy a value is not kept. */
  set(key: K, value: V, weight = 1): void {
    this.delete(key)
    if (weight > this.#maxWeight) return
    this.#entries.set(key, { value, weight })
    this.#weight += weight
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#weight <= this.#maxWeight) break
      this.#entries.delete(oldest)
      this.#weight -= entry.weight
    }
  }

  delete(key: K): void {
    const entry = this.#entries.get(key)
    if (!entry) return
    this.#entries.delete(key)
    this.#weight -= entry.weight
  }
}
