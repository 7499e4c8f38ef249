import type { RenderRequest } from './render.ts'

/**
 * What a zero-retention render keeps of its request once it ended: only what the service still
 * reads (delivery, hosting, link lifetime, webhook, the stored-body keys it deletes), nothing of
 * the document, its data or its options. Other renders keep their request (without credentials)
 * until the render record's own retention ends.
 */
export function endedRequest(request: RenderRequest, retentionDays: number): RenderRequest {
  if (retentionDays > 0) return request
  return {
    input: { type: request.input.type },
    data: null,
    data_url: null,
    output: { format: request.output.format },
    delivery: { type: request.delivery.type },
    filename: null,
    expires_in: request.expires_in,
    hosted: request.hosted,
    webhook: request.webhook,
    timeout_behavior: request.timeout_behavior,
    ...(request.stored_bodies ? { stored_bodies: request.stored_bodies } : {}),
  }
}
