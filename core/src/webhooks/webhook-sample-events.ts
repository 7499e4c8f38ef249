import { usageThresholdData } from '../billing/usage-thresholds.ts'
import type { EventType } from '../events/event-types.ts'
import { newId } from '../kernel/ids.ts'

/** Event types `POST .../test` can send: all of SPEC 6.1 but the planned `api_key.expiring`. */
export type TestableEventType = Exclude<EventType, 'api_key.expiring'>

/**
 * Sample `data` of the real shape for a test event (SPEC 4.11): ids are made up and files have
 * no URL.
 */
export function sampleEventData(type: TestableEventType, at: Date): Record<string, unknown> {
  const now = at.toISOString()
  switch (type) {
    case 'render.succeeded':
    case 'render.failed':
    case 'render.expired':
      return { object: sampleRender(type, now) }
    case 'template.published':
      return {
        object: {
          id: newId('template'),
          object: 'template',
          name: 'Invoice',
          live_version: 2,
          updated_at: now,
        },
        version: { id: newId('templateVersion'), object: 'template_version', version: 2, published_at: now },
      }
    case 'usage.threshold_reached':
      // the shape the billing feature sends (core/src/billing/usage-thresholds.ts)
      return usageThresholdData('included_renders_80', {
        cycle_start: new Date(at.getTime() - 10 * 86_400_000).toISOString(),
        cycle_end: new Date(at.getTime() + 20 * 86_400_000).toISOString(),
        renders: 800,
        included_renders: 1000,
        overage_renders: 0,
        top_ups: 0,
        top_up_renders: 500,
        top_up_limit: 4,
        remaining_renders: 200,
        renders_until_limit: 2200,
      })
    case 'batch.progress':
    case 'batch.completed':
      return { object: sampleBatch(type === 'batch.completed', now) }
    case 'storage.upload_failed':
      return {
        object: {
          object: 'storage_upload',
          render_id: newId('render'),
          file_id: newId('file'),
          destination_id: newId('storageDestination'),
          status: 'failed',
          attempts: 5,
          error: { code: 'storage_upload_failed', message: 'The destination refused the upload (403).' },
          failed_at: now,
        },
      }
    case 'email.sent':
    case 'email.send_failed':
      return { object: sampleEmailSend(type === 'email.sent' ? 'sent' : 'failed', now) }
    case 'email.delivered':
    case 'email.bounced':
    case 'email.complained': {
      const event = type.slice('email.'.length)
      return {
        object: sampleEmailSend('sent', now),
        event: { type: event, provider: 'provider_a', occurred_at: now },
      }
    }
  }
}

function sampleRender(type: 'render.succeeded' | 'render.failed' | 'render.expired', now: string) {
  const status = type.slice('render.'.length)
  return {
    id: newId('render'),
    object: 'render',
    status,
    test: true,
    input_type: 'template',
    kind: 'render',
    source: 'api',
    output_format: 'pdf',
    reference: 'sample-invoice-1001',
    metadata: { order: '1001' },
    template_id: newId('template'),
    batch_id: null,
    mode: 'async',
    priority: 'normal',
    files:
      type === 'render.succeeded'
        ? [
            {
              id: newId('file'),
              format: 'pdf',
              content_type: 'application/pdf',
              size: 48_213,
              filename: 'invoice-1001.pdf',
              pages: 2,
            },
          ]
        : [],
    result: null,
    warnings: [],
    error: type === 'render.failed' ? { code: 'render_failed', message: 'The sample render failed.' } : null,
    created_at: now,
    started_at: now,
    finished_at: now,
    files_expire_at: type === 'render.expired' ? now : null,
  }
}

function sampleBatch(completed: boolean, now: string) {
  return {
    id: newId('batch'),
    object: 'batch',
    status: completed ? 'completed' : 'processing',
    test: true,
    template_id: newId('template'),
    total: 100,
    succeeded: completed ? 98 : 40,
    failed: completed ? 2 : 0,
    canceled: 0,
    pending: completed ? 0 : 60,
    progress: completed ? 100 : 40,
    files: [],
    created_at: now,
    finished_at: completed ? now : null,
  }
}

function sampleEmailSend(status: 'sent' | 'failed', now: string) {
  return {
    id: newId('emailSend'),
    object: 'email_send',
    status,
    test: true,
    render_id: newId('render'),
    rule_id: newId('emailRule'),
    connection_id: newId('emailConnection'),
    to: ['customer@example.com'],
    subject: 'Your invoice 1001',
    error:
      status === 'failed'
        ? { code: 'provider_rejected', message: 'The provider refused the message.' }
        : null,
    created_at: now,
    sent_at: status === 'sent' ? now : null,
  }
}
