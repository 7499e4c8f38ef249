import { createHash } from 'node:crypto'
import { type ClaimedJob, checkJobOptions, type JobGroup, type JobOptions } from '@docsvc/core/sdk'
import type { JobWithMetadata, SendOptions } from 'pg-boss'

// How the queue contract maps onto pg-boss's jobs.

export interface PgClaimedJob extends ClaimedJob {
  /** pg-boss's fence for settling this attempt */
  retryCount: number
}

/** pg-boss fetches the higher number first */
const PRIORITY = { normal: 10, low: 0 } as const

const MAX_EXPIRE_SECONDS = 24 * 3600

/** pg-boss's group of a job: the group's key, its limit as the tier (pg-boss's tiers are strings) */
function pgBossGroup(group: JobGroup | undefined) {
  if (!group) return undefined
  return { id: group.key, ...(group.limit !== undefined ? { tier: String(group.limit) } : {}) }
}

export function toSendOptions(options: JobOptions, retryDelaySeconds: number): SendOptions {
  checkJobOptions(options)
  const group = pgBossGroup(options.group)
  return {
    ...(options.id ? { id: options.id } : {}),
    ...(group ? { group } : {}),
    priority: PRIORITY[options.priority] ?? PRIORITY.normal,
    // pg-boss counts retries, the contract counts attempts
    retryLimit: options.maxAttempts - 1,
    retryDelay: retryDelaySeconds,
    // whole seconds from 1 s to 24 h in pg-boss
    expireInSeconds: Math.min(MAX_EXPIRE_SECONDS, Math.max(1, Math.ceil(options.timeoutSeconds))),
  }
}

export function toClaimedJob(
  job: Pick<
    JobWithMetadata<Record<string, unknown>>,
    'id' | 'name' | 'data' | 'retryCount' | 'retryLimit' | 'expireInSeconds'
  >,
): PgClaimedJob {
  return {
    id: job.id,
    name: job.name,
    data: job.data ?? {},
    attempt: job.retryCount + 1,
    maxAttempts: job.retryLimit + 1,
    timeoutSeconds: job.expireInSeconds,
    retryCount: job.retryCount,
  }
}

/** LISTEN channels are database-wide: one per queue schema, under the 63-byte name limit */
export function notifyChannel(schema: string): string {
  return `docsvc_queue_${createHash('sha256').update(schema).digest('hex').slice(0, 20)}`
}
