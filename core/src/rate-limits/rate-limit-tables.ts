// The rate limiter's table (its part of migration 0001-platform in ./migrations), joined to the
// Database type. Other features reach it through RateLimiter, never here.

export interface RateLimitCounterTable {
  bucket: string
  count: number
  expires_at: string
}

declare module '../db/schema.ts' {
  interface Database {
    rate_limit_counters: RateLimitCounterTable
  }
}
