import type { EventEnvelope } from '../events/event-types.ts'
import type { WebhookEndpoint } from './webhook-endpoint.ts'

/** A render's own `webhook` (SPEC 2.16, 6.3). */
export interface InlineWebhook {
  url: string
  events?: string[]
}

export const RENDER_EVENT_TYPES = ['render.succeeded', 'render.failed', 'render.expired'] as const

export function isRenderEvent(event: EventEnvelope): boolean {
  return (RENDER_EVENT_TYPES as readonly string[]).includes(event.type)
}

function objectOf(event: EventEnvelope): Record<string, unknown> | undefined {
  const object = event.data.object
  return object && typeof object === 'object' ? (object as Record<string, unknown>) : undefined
}

/** The render an event is about, for the deliveries' `render_id` filter. */
export function eventRenderId(event: EventEnvelope): string | null {
  if (!isRenderEvent(event)) return null
  const id = objectOf(event)?.id
  return typeof id === 'string' ? id : null
}

/** The template an event is about, for endpoints' `template_ids` filter; null when none. */
export function eventTemplateId(event: EventEnvelope): string | null {
  const object = objectOf(event)
  const templateId = object?.template_id
  if (typeof templateId === 'string') return templateId
  if (event.type === 'template.published' && typeof object?.id === 'string') return object.id
  return null
}

/**
 * The endpoints that receive an event (SPEC 6.3): same workspace and mode, enabled, subscribed
 * to its type, and, with `template_ids`, about one of those templates. The default endpoint
 * does not receive the events of a render that carries its own webhook.
 */
export function subscribedEndpoints(
  event: EventEnvelope,
  endpoints: readonly WebhookEndpoint[],
  inline: InlineWebhook | null,
): WebhookEndpoint[] {
  const test = event.test === true
  const templateId = eventTemplateId(event)
  return endpoints.filter(
    (e) =>
      e.workspace_id === event.workspace_id &&
      e.test === test &&
      e.enabled &&
      e.events.includes(event.type) &&
      (e.template_ids === null ||
        e.template_ids.length === 0 ||
        (templateId !== null && e.template_ids.includes(templateId))) &&
      !(e.is_default && inline !== null && isRenderEvent(event)),
  )
}

/** Whether a render's inline webhook wants this event (all render events when it names none). */
export function inlineWants(event: EventEnvelope, inline: InlineWebhook | null): inline is InlineWebhook {
  if (!inline || !isRenderEvent(event)) return false
  return !inline.events || inline.events.length === 0 || inline.events.includes(event.type)
}
