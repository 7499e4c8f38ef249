import type { TSchema } from 'typebox'
import { UsageThresholdEventData } from '../billing/usage-thresholds.ts'
import { DELIVERED_EVENT_TYPES } from '../events/event-types.ts'
import { sampleEventData, type TestableEventType } from './webhook-sample-events.ts'
import { USER_AGENT } from './webhook-sender.ts'

// The events the service POSTs to webhook endpoints, as OpenAPI 3.1 `webhooks`: one entry per
// event type, its envelope, what `data` holds, the signing headers, and a sample payload made by
// the same code that sends test events (POST /v1/webhook-endpoints/{id}/test).

const SENT_WHEN: Record<TestableEventType, string> = {
  'render.succeeded': 'A render finished and its files are available. `data.object` is the render.',
  'render.failed': 'A render failed; `data.object` is the render and its `error` explains.',
  'render.expired':
    "A render's files were deleted at the end of their retention. `data.object` is the render.",
  'template.published':
    'A template version was published: `data.object` is the template, `data.version` the version.',
  'usage.threshold_reached':
    'Usage passed 50 %, 80 % or 100 % of the included renders, or the monthly top-up limit stopped top-ups.',
  'batch.progress':
    'A batch advanced another 10 %, or paused for lack of renders. `data.object` is the batch.',
  'batch.completed': 'A batch finished (also when canceled). `data.object` is the batch.',
  'storage.upload_failed': 'An upload to a storage destination failed for good. `data.object` is the upload.',
  'email.sent': 'The email provider accepted an email. `data.object` is the email send.',
  'email.send_failed': 'An email failed or its outcome is unknown. `data.object` is the email send.',
  'email.delivered': 'The provider reported the email delivered; `data.event` says when.',
  'email.bounced': 'The provider reported a bounce, block or invalid address; `data.event` has it.',
  'email.complained': 'The provider reported a spam complaint; `data.event` has it.',
}

const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
  example,
})

const HEADERS = [
  header(
    'webhook-id',
    "The event id, as the body's `id`: deduplicate on it (events may arrive more than once).",
    'evt_01hzy3k2m5',
  ),
  header(
    'webhook-timestamp',
    'Signing time, Unix seconds; reject it when more than 5 minutes from your clock.',
    '1764000000',
  ),
  header(
    'webhook-signature',
    'Space-separated `v1,<base64>` entries: HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}` keyed with the base64-decoded secret after `whsec_`; one per active secret. Accept when any matches (constant-time compare).',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
  header('user-agent', 'Identifies the sender.', USER_AGENT),
]

/** Events whose `data` has a schema of its own (the rest carry the record named in SENT_WHEN). */
const DATA_SCHEMAS: Partial<Record<TestableEventType, TSchema>> = {
  'usage.threshold_reached': UsageThresholdEventData,
}

function envelope(type: TestableEventType): Record<string, unknown> {
  const dataSchema = DATA_SCHEMAS[type]
  return {
    type: 'object',
    required: ['id', 'type', 'created_at', 'workspace_id', 'region', 'data'],
    properties: {
      id: { type: 'string', description: 'Event id (evt_...), also in the webhook-id header.' },
      type: { const: type, description: 'The event type.' },
      created_at: { type: 'string', format: 'date-time', description: 'When the event happened (UTC).' },
      workspace_id: { type: 'string', description: 'The workspace the event belongs to.' },
      region: { type: 'string', description: 'The region that sent it.' },
      data: dataSchema
        ? { ...dataSchema, description: SENT_WHEN[type] }
        : { type: 'object', additionalProperties: true, description: SENT_WHEN[type] },
      test: { const: true, description: 'Present, and true, on events of test renders and test sends.' },
    },
  }
}

const SAMPLE_TIME = new Date('2026-01-15T09:30:00Z')

/** The `webhooks` section of the OpenAPI document. */
export function webhookOperations(): Record<string, unknown> {
  return Object.fromEntries(
    DELIVERED_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: type,
          description: `${SENT_WHEN[type]} Sent to the endpoints subscribed to \`${type}\`, and to a render's own \`webhook\`. Answer any 2xx within 10 seconds; anything else is retried up to 8 times over about 27 hours. Redirects are not followed.`,
          tags: ['webhooks'],
          security: [],
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: envelope(type),
                example: {
                  id: 'evt_01hzy3k2m5x8q9r0s1t2u3v4w5',
                  type,
                  created_at: SAMPLE_TIME.toISOString(),
                  workspace_id: 'ws_01hzy3k2m5x8q9r0s1t2u3v4w5',
                  region: 'eu',
                  data: sampleEventData(type, SAMPLE_TIME),
                  test: true,
                },
              },
            },
          },
          responses: {
            '2XX': { description: 'Received. Any 2xx within 10 seconds counts as delivered.' },
            default: {
              description:
                'Not received: the delivery is retried (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).',
            },
          },
        },
      },
    ]),
  )
}
