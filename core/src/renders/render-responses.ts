import { Type } from 'typebox'
import { problemResponse, stdResponses } from '../http/schemas/problem-schema.ts'

export const RenderRecord = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      "The render: `id` (rnd_...), `status` (queued, processing, succeeded, failed, canceled, expired), `files` (each with `id`, `format`, `pages` for PDFs and a signed `url`), `warnings`, `error` when it failed, `result` (validation reports: `result.conformance.pdfa` / `.pdfua` with `valid`, `profile`, `source`, `rules_checked`, `errors` and `warnings` of `rule_id`, `clause`, `page`, `object`, `message`; a PDF tool's result), and what was sent (`reference`, `metadata`, `test`, `input_type`, `output_format`).",
  },
)

const ERRORS: Record<number, string> = {
  402: 'Render limit reached or feature not in the plan',
  404: 'Not found',
  408: 'Sync render timed out and was canceled',
  409: 'Conflict with the current state, or idempotency key in progress',
  410: 'Gone: template deleted or file expired',
  413: 'Payload or output too large',
  422: 'Render failed or request cannot be processed',
  429: 'Rate limited, or more sync renders at once than the plan allows (concurrency_limited); Retry-After says when to try again',
}

/** The RENDER set of SPEC 4.1.6, for endpoints that create renders. */
export const RENDER_SET = [402, 404, 408, 409, 410, 413, 422, 429]

/** A route's documented responses: the given successes, STD, and the listed problem statuses. */
export function renderResponses(
  success: Record<number, unknown>,
  problems: number[],
): Record<number, unknown> {
  return {
    ...success,
    ...stdResponses(),
    ...Object.fromEntries(problems.map((status) => [status, problemResponse(ERRORS[status] ?? 'Problem')])),
  }
}
