import type { ApiKeyRepository, KeyUsageDelta } from './api-key-repository.ts'

export function usageHour(date: Date): string {
  return date.toISOString().slice(0, 13)
}

/**
 * Counts requests per key in memory and writes them in one transaction every few seconds, so
 * authentication adds no write to the request path. Flushed on shutdown.
 */
export class KeyUsageRecorder {
  readonly #repo: ApiKeyRepository
  readonly #pending = new Map<string, KeyUsageDelta>()
  readonly #timer: NodeJS.Timeout
  #flushing: Promise<void> = Promise.resolve()

  constructor(deps: { apiKeyRepository: ApiKeyRepository; config: { keyUsageFlushMs: number } }) {
    this.#repo = deps.apiKeyRepository
    this.#timer = setInterval(() => void this.flush().catch(() => {}), deps.config.keyUsageFlushMs)
    this.#timer.unref()
  }

  record(keyId: string, ip: string, at: Date = new Date()): void {
    const hour = usageHour(at)
    const slot = `${keyId}|${hour}`
    const entry = this.#pending.get(slot)
    if (entry) {
      entry.count += 1
      entry.lastUsedAt = at.toISOString()
      entry.lastIp = ip
    } else {
      this.#pending.set(slot, { keyId, hour, count: 1, lastUsedAt: at.toISOString(), lastIp: ip })
    }
  }

  flush(): Promise<void> {
    // one failed write must not stop every later flush, and its counts are kept for the next one
    const run = this.#flushing
      .catch(() => {})
      .then(async () => {
        if (this.#pending.size === 0) return
        const batch = [...this.#pending.values()]
        this.#pending.clear()
        try {
          await this.#repo.recordUsage(batch)
        } catch (err) {
          this.#putBack(batch)
          throw err
        }
      })
    this.#flushing = run
    return run
  }

  #putBack(batch: KeyUsageDelta[]): void {
    for (const delta of batch) {
      const slot = `${delta.keyId}|${delta.hour}`
      const newer = this.#pending.get(slot)
      if (!newer) this.#pending.set(slot, delta)
      else {
        newer.count += delta.count
        if (newer.lastUsedAt < delta.lastUsedAt)
          Object.assign(newer, { lastUsedAt: delta.lastUsedAt, lastIp: delta.lastIp })
      }
    }
  }

  async dispose(): Promise<void> {
    clearInterval(this.#timer)
    await this.flush()
  }
}
