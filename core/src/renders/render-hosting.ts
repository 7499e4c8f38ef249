import { type FieldProblem, ProblemError, validationProblem } from '../kernel/problem-error.ts'
import type { DeliveryType, Render, RenderRequest } from './render.ts'

// Whether a render keeps a hosted copy of its files (SPEC 4.2 `hosted`, `retention_days: 0`):
// the one place that rule lives. docs/decisions/0015-zero-retention.md explains the choices.

/** How long a copy kept only for the sync response may wait for it before the sweeper drops it. */
export const TRANSIENT_COPY_MS = 5 * 60 * 1000

export interface Hosting {
  /** `retention_days: 0`: files are never kept after delivery, and never served by id */
  zeroRetention: boolean
  /** the files stay hosted for the retention period (else only until delivered) */
  hosted: boolean
}

/**
 * Zero retention never keeps a copy; `hosted: false` drops it once delivered. Absent or null
 * means true: false only when every storage destination says `keep_hosted_copy: false`, and
 * renders have no storage destinations yet.
 */
export function hostingOf(render: {
  retention_days: number
  request: Pick<RenderRequest, 'hosted'>
}): Hosting {
  const zeroRetention = render.retention_days === 0
  return { zeroRetention, hosted: !zeroRetention && render.request.hosted !== false }
}

/** The delivery a request gets when it names none: files can only be linked when they stay hosted. */
export function defaultDelivery(body: {
  retention_days?: number | null
  hosted?: boolean | null
}): DeliveryType {
  return body.retention_days === 0 || body.hosted === false ? 'none' : 'url'
}

/** The sync response reads the files itself (binary, base64), so the worker leaves them for it. */
export function responseReadsFiles(render: Pick<Render, 'mode' | 'request'>): boolean {
  const type = render.request.delivery.type
  return render.mode === 'sync' && (type === 'binary' || type === 'base64')
}

/** Refuses, at creation, the combinations that need a hosted copy the render will not keep. */
export function assertHostingFits(request: RenderRequest, retentionDays: number): void {
  const { zeroRetention, hosted } = hostingOf({ retention_days: retentionDays, request })
  if (zeroRetention && (request.delivery.email?.length ?? 0) > 0) {
    throw new ProblemError(
      'email_needs_hosted_file',
      'Email delivery needs a hosted file; a zero-retention render (retention_days 0) keeps none.',
    )
  }
  const problems: FieldProblem[] = []
  if (zeroRetention && request.hosted === true) {
    problems.push({
      path: '/hosted',
      code: 'conflict',
      message: 'a zero-retention render (retention_days 0) never keeps a hosted copy',
    })
  }
  if (!hosted && request.delivery.type === 'url') {
    problems.push({
      path: '/delivery',
      code: 'conflict',
      message: zeroRetention
        ? 'url delivery links hosted files; with retention_days 0 use binary, base64 or none'
        : 'url delivery links hosted files; with hosted false use binary, base64 or none',
    })
  }
  if (problems.length > 0) throw validationProblem(problems)
}
