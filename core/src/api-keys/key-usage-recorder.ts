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
    this.#flushing = this.#flushing.then(async () => {
      if (this.#pending.size === 0) return
      const batch = [...this.#pending.values()]
      this.#pending.clear()
      await this.#repo.recordUsage(batch)
    })
    return this.#flushing
  }

  async dispose(): Promise<void> {
    clearInterval(this.#timer)
    await this.flush()
  }
}
