import { Type } from 'typebox'
import { DELIVERED_EVENT_TYPES, EVENT_TYPES } from '../events/event-types.ts'
import { Cursor, Limit } from '../http/schemas/list-query.ts'
import { problemResponse, stdResponses } from '../http/schemas/problem-schema.ts'
import { DELIVERY_STATUSES } from './webhook-delivery.ts'

export const EventTypeSchema = Type.Union(
  EVENT_TYPES.map((t) => Type.Literal(t)),
  {
    description: 'An event type; the `webhooks` section of this document shows each payload.',
  },
)
export const TestableEventTypeSchema = Type.Union(
  DELIVERED_EVENT_TYPES.map((t) => Type.Literal(t)),
  {
    description: 'The event type whose sample to send.',
    examples: ['render.succeeded'],
  },
)

const endpointFields = {
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'Where events are POSTed: an absolute https URL (http for test-mode endpoints).',
    examples: ['https://example.com/hooks/docsvc'],
  }),
  events: Type.Array(EventTypeSchema, {
    minItems: 1,
    maxItems: EVENT_TYPES.length,
    uniqueItems: true,
    description: 'The event types to send to this endpoint.',
    examples: [['render.succeeded', 'render.failed']],
  }),
  description: Type.Union([Type.String({ maxLength: 500 }), Type.Null()], {
    description: 'What the endpoint is for.',
    examples: ['Billing system: marks invoices as sent'],
  }),
  enabled: Type.Boolean({ description: 'false pauses deliveries (default true).', examples: [false] }),
  is_default: Type.Boolean({
    description:
      'Receives the events of renders that carry no inline webhook, and its secret signs inline deliveries.',
    examples: [true],
  }),
  template_ids: Type.Union(
    [
      Type.Array(Type.String({ pattern: '^tpl_[0-9a-z]{20,40}$' }), { maxItems: 100, uniqueItems: true }),
      Type.Null(),
    ],
    {
      description: 'Only events of renders of these templates; null: every render.',
      examples: [['tpl_01hzy3k2m5x8q9r0s1t2v4w5x6']],
    },
  ),
  headers: Type.Record(Type.String(), Type.String({ maxLength: 1000 }), {
    maxProperties: 10,
    description: 'Extra request headers sent with every delivery, at most 10.',
    examples: [{ 'X-Team': 'billing' }],
  }),
}

/** WebhookEndpointWrite (SPEC 2.12) */
export const CreateEndpointBody = Type.Object(
  {
    url: endpointFields.url,
    events: endpointFields.events,
    description: Type.Optional(endpointFields.description),
    enabled: Type.Optional(endpointFields.enabled),
    is_default: Type.Optional(endpointFields.is_default),
    template_ids: Type.Optional(endpointFields.template_ids),
    headers: Type.Optional(endpointFields.headers),
  },
  { additionalProperties: false },
)

/** partial; the secret is changed only by roll-secret */
export const PatchEndpointBody = Type.Partial(Type.Object(endpointFields), { additionalProperties: false })

export const RollSecretBody = Type.Object(
  {
    expire_previous_in: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 7 * 86_400,
        default: 86_400,
        description: 'seconds the previous secret keeps signing; 0 ends it now',
        examples: [3600],
      }),
    ),
  },
  { additionalProperties: false },
)

export const TestEventBody = Type.Object({ event: TestableEventTypeSchema }, { additionalProperties: false })

const EndpointId = Type.String({
  maxLength: 100,
  description: 'The webhook endpoint (whe_...).',
  examples: ['whe_01kaz3u0v2w4x6y8z0a2b4c6de'],
})
export const EndpointParams = Type.Object({ endpoint_id: EndpointId })
export const DeliveryParams = Type.Object({
  delivery_id: Type.String({
    maxLength: 100,
    description: 'The delivery (whd_...).',
    examples: ['whd_01kaz3s2t4v6w8x0y2z4a6b8cd'],
  }),
})

export const DeliveryListQuery = Type.Object(
  {
    cursor: Type.Optional(Cursor('whd_01kaz3s2t4v6w8x0y2z4a6b8cd')),
    limit: Type.Optional(Limit),
    endpoint_id: Type.Optional({ ...EndpointId, description: 'Only deliveries to this endpoint.' }),
    render_id: Type.Optional(
      Type.String({
        maxLength: 100,
        description: "Only deliveries of this render's events.",
        examples: ['rnd_01kaz3m8q4r7t9v2w5x6y8z0ab'],
      }),
    ),
    status: Type.Optional(
      Type.Union(
        DELIVERY_STATUSES.map((s) => Type.Literal(s)),
        { description: 'Only deliveries in this state.', examples: ['failed'] },
      ),
    ),
  },
  { additionalProperties: false },
)

export const EndpointRecord = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'The webhook endpoint: its `id`, `url`, `events`, `enabled`, `is_default`, `template_ids` and `headers`.',
  },
)
export const EndpointWithSecret = Type.Object(
  {},
  { additionalProperties: true, description: 'webhook endpoint with its signing `secret`, shown once' },
)
export const DeliveryRecord = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'One delivery of an event: its status (pending, succeeded, failed, exhausted), the payload, the response status and an excerpt of its body, latency and attempt number; `replay_of` on a replay.',
  },
)
export const ListOf = (description: string) => Type.Object({}, { additionalProperties: true, description })

const PROBLEMS: Record<number, string> = {
  404: 'Not found',
  409: 'Conflict: the endpoint is deleted or disabled',
  503: 'Control plane unreachable; Retry-After says when to try again',
}

/** Success responses, STD, CP (503) and the listed problems (SPEC 4.1, 4.11). */
export function webhookResponses(success: Record<number, unknown>, problems: number[] = []) {
  return {
    ...success,
    ...stdResponses(),
    ...Object.fromEntries([...problems, 503].map((s) => [s, problemResponse(PROBLEMS[s] ?? 'Problem')])),
  }
}
