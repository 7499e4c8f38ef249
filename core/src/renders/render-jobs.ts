import { createHash } from 'node:crypto'
import type { Config } from '../kernel/config.ts'
import type { Plan } from '../plans/plan.ts'
import type { JobOptions } from '../sdk/queue-contracts.ts'
import type { Render } from './render.ts'

export const RENDER_JOB = 'render'

/**
 * The one job of a render: its id follows from the render's, so sending it again (the sweeper
 * putting back a job whose first send may or may not have happened) never makes a second.
 */
export function renderJobId(renderId: string): string {
  const hex = createHash('sha256').update(`render-job:${renderId}`).digest('hex')
  // shaped as a version 8 (custom) UUID, which pg-boss and the SQLite queue both take
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/**
 * How a render's job is claimed: fairly between workspaces, and never more of one workspace's
 * async renders at once than its plan's `bulk_concurrency`. Sync renders are a group of their own
 * (limited by `sync_concurrency`, which admission enforces already), so a workspace's sync render
 * never waits behind its own async backlog.
 */
export function renderJobOptions(render: Render, plan: Plan, config: Config): JobOptions {
  const sync = render.mode === 'sync'
  return {
    id: renderJobId(render.id),
    priority: render.priority,
    timeoutSeconds: config.renderTimeoutSeconds + 30,
    maxAttempts: 2,
    group: sync
      ? { key: `${render.workspace_id}:sync`, limit: plan.limits.sync_concurrency }
      : { key: render.workspace_id, limit: plan.limits.bulk_concurrency },
  }
}
