import type { Static } from 'typebox'
import type { AuthContext } from '../api-keys/api-key-service.ts'
import { ProblemError, validationProblem } from '../kernel/problem-error.ts'
import type { OutputFormat } from '../sdk/render-contracts.ts'
import type { RenderRequest } from './render.ts'
import { defaultDelivery } from './render-hosting.ts'
import type { CreateRenderBody } from './render-schemas.ts'
import type { CreateRenderInput } from './render-service.ts'

type Body = Static<typeof CreateRenderBody>

/** Everything of a render-creating body except the input and output, which differ per endpoint. */
export type SharedBody = Omit<Body, 'input' | 'output' | 'overrides'>

function deliveryOf(body: SharedBody): RenderRequest['delivery'] {
  const d = body.delivery
  if (d === undefined || d === null) return { type: defaultDelivery(body) }
  if (typeof d === 'string') return { type: d }
  return {
    type: d.type,
    ...(d.email && d.email.length > 0 ? { email: d.email } : {}),
    ...(d.storage && d.storage.length > 0 ? { storage: d.storage } : {}),
  }
}

/**
 * The options object a format reads: `pdf` for PDF, `image` for the rest. Options under the
 * other name would never take effect, so they are refused at their field rather than ignored.
 */
export function optionsKeyOf(
  format: OutputFormat,
  output: { pdf?: unknown; image?: unknown } | null | undefined,
  at: string,
): 'pdf' | 'image' {
  const key = format === 'pdf' ? 'pdf' : 'image'
  const other = key === 'pdf' ? 'image' : 'pdf'
  if (output?.[other] !== undefined && output[other] !== null) {
    throw validationProblem([
      {
        path: `${at}/${other}`,
        code: 'conflict',
        message: `${other} options do not apply to ${format} output: send them as ${at}/${key}, or leave ${other} out`,
      },
    ])
  }
  return key
}

/**
 * One normalised request for the general endpoint and the convenience ones: SPEC 4.2 defaults,
 * the test-key rule, and the combinations that cannot work.
 */
export function normaliseRender(
  auth: AuthContext,
  body: SharedBody,
  input: RenderRequest['input'],
  output: RenderRequest['output'] & { format: OutputFormat },
  optionsPointer: string,
): CreateRenderInput {
  if (body.test === true && !auth.test) {
    throw new ProblemError('test_key_required', 'test: true needs a test key (doc_test_...).')
  }
  const mode = body.mode ?? 'sync'
  // a request that names no retention gets the workspace's default: zero retention when the
  // operator switched `zero_retention_default` on, else the plan's (render-service.ts)
  const retentionDays = body.retention_days ?? (auth.workspace.settings.zero_retention_default ? 0 : null)
  const { type: delivery, ...deliveryLists } = deliveryOf({ ...body, retention_days: retentionDays })
  const problems = []
  if (mode === 'async' && (delivery === 'binary' || delivery === 'base64')) {
    problems.push({ path: '/delivery', code: 'conflict', message: `${delivery} delivery needs mode sync` })
  }
  if (body.data != null && body.data_url != null) {
    problems.push({ path: '/data_url', code: 'conflict', message: 'send data or data_url, not both' })
  }
  if (problems.length > 0) throw validationProblem(problems)
  const webhook = body.webhook ?? (body.webhook_url ? { url: body.webhook_url } : null)
  return {
    request: {
      input,
      data: body.data ?? null,
      data_url: body.data_url ?? null,
      output,
      delivery: { type: delivery, ...deliveryLists },
      filename: body.filename ?? null,
      expires_in: body.expires_in ?? null,
      hosted: body.hosted ?? null,
      webhook: webhook ? { url: webhook.url, ...(webhook.events ? { events: webhook.events } : {}) } : null,
      timeout_behavior: body.timeout_behavior ?? 'continue',
    },
    mode,
    priority: body.priority ?? 'normal',
    reference: body.reference ?? null,
    metadata: (body.metadata as Record<string, unknown> | null | undefined) ?? null,
    retentionDays,
    engine: body.engine ?? null,
    optionsPointer,
    webhookPointer: body.webhook != null ? '/webhook' : '/webhook_url',
  }
}
