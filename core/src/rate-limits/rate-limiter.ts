import type { RateLimitStore } from './rate-limit-store.ts'

export interface RateLimitPolicy {
  name: string
  limit: number
  windowSeconds: number
}

export interface RateLimitOutcome {
  allowed: boolean
  policy: RateLimitPolicy
  remaining: number
  /** seconds until the window resets */
  reset: number
}

export class RateLimiter {
  readonly #store: RateLimitStore
  constructor({ rateLimitStore }: { rateLimitStore: RateLimitStore }) {
    this.#store = rateLimitStore
  }

  async consume(bucket: string, policy: RateLimitPolicy, now = Date.now()): Promise<RateLimitOutcome> {
    const windowMs = policy.windowSeconds * 1000
    const { count, resetAt } = await this.#store.hit(`${policy.name}:${bucket}`, windowMs, now)
    return outcomeOf(policy, count <= policy.limit, count, resetAt, now)
  }

  /** Whether one more would be allowed, counting nothing (for limits on failures only). */
  async check(bucket: string, policy: RateLimitPolicy, now = Date.now()): Promise<RateLimitOutcome> {
    const windowMs = policy.windowSeconds * 1000
    const { count, resetAt } = await this.#store.peek(`${policy.name}:${bucket}`, windowMs, now)
    return outcomeOf(policy, count < policy.limit, count, resetAt, now)
  }
}

function outcomeOf(
  policy: RateLimitPolicy,
  allowed: boolean,
  count: number,
  resetAt: number,
  now: number,
): RateLimitOutcome {
  return {
    allowed,
    policy,
    remaining: Math.max(0, policy.limit - count),
    reset: Math.max(1, Math.ceil((resetAt - now) / 1000)),
  }
}

/** IETF draft-ietf-httpapi-ratelimit-headers: RateLimit-Policy and RateLimit as structured fields. */
export function rateLimitHeaders(outcome: RateLimitOutcome): Record<string, string> {
  const { policy } = outcome
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`,
    RateLimit: `"${policy.name}";r=${outcome.remaining};t=${outcome.reset}`,
  }
  if (!outcome.allowed) headers['Retry-After'] = String(outcome.reset)
  return headers
}
