import type { AuthContext } from '../api-keys/api-key-service.ts'
import type { EventEnvelope } from '../events/event-types.ts'
import type { Config } from '../kernel/config.ts'
import { newId } from '../kernel/ids.ts'
import { type FieldProblem, ProblemError, validationProblem } from '../kernel/problem-error.ts'
import type { OutboundGuard } from '../net/outbound-guard.ts'
import type { WebhookDelivery } from './webhook-delivery.ts'
import type { WebhookDeliveryRepository } from './webhook-delivery-repository.ts'
import type { WebhookEndpoint } from './webhook-endpoint.ts'
import type { EndpointChanges, WebhookEndpointRepository } from './webhook-endpoint-repository.ts'
import { sampleEventData, type TestableEventType } from './webhook-sample-events.ts'
import type { WebhookScheduler } from './webhook-scheduler.ts'
import { newSigningSecret, type WebhookSecretBox } from './webhook-secrets.ts'
import type { WebhookSettings } from './webhook-settings.ts'
import { endpointUrlProblem } from './webhook-url-check.ts'

export interface EndpointWrite {
  url?: string
  events?: string[]
  description?: string | null
  enabled?: boolean
  is_default?: boolean
  template_ids?: string[] | null
  headers?: Record<string, string>
}

// headers the delivery itself sets (SPEC 6.4) or that belong to the connection
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'user-agent',
  'host',
  'connection',
  'transfer-encoding',
])
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/

function headerProblems(headers: Record<string, string> | undefined): FieldProblem[] {
  if (!headers) return []
  return Object.entries(headers).flatMap(([name, value]) => {
    const path = `/headers/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`
    if (!HEADER_NAME.test(name)) return [{ path, code: 'pattern', message: 'is not a valid header name' }]
    const lower = name.toLowerCase()
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('webhook-'))
      return [{ path, code: 'reserved', message: `${name} is set by the delivery itself` }]
    if (/[\r\n\0]/.test(value)) return [{ path, code: 'pattern', message: 'must not contain line breaks' }]
    return []
  })
}

/** Webhook endpoints of SPEC 4.11: CRUD, secret roll, test events. */
export class WebhookEndpointService {
  readonly #endpoints: WebhookEndpointRepository
  readonly #deliveries: WebhookDeliveryRepository
  readonly #scheduler: WebhookScheduler
  readonly #box: WebhookSecretBox
  readonly #guard: OutboundGuard
  readonly #settings: WebhookSettings
  readonly #region: string

  constructor(deps: {
    webhookEndpointRepository: WebhookEndpointRepository
    webhookDeliveryRepository: WebhookDeliveryRepository
    webhookScheduler: WebhookScheduler
    webhookSecretBox: WebhookSecretBox
    outboundGuard: OutboundGuard
    webhookSettings: WebhookSettings
    config: Pick<Config, 'region'>
  }) {
    this.#endpoints = deps.webhookEndpointRepository
    this.#deliveries = deps.webhookDeliveryRepository
    this.#scheduler = deps.webhookScheduler
    this.#box = deps.webhookSecretBox
    this.#guard = deps.outboundGuard
    this.#settings = deps.webhookSettings
    this.#region = deps.config.region
  }

  list(auth: AuthContext): Promise<WebhookEndpoint[]> {
    return this.#endpoints.list(auth.workspace.id, auth.test)
  }

  async get(auth: AuthContext, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.#endpoints.get(auth.workspace.id, auth.test, id)
    if (!endpoint) throw new ProblemError('not_found', `No webhook endpoint ${id}.`)
    return endpoint
  }

  /** The new endpoint and its signing secret, shown this once. */
  async create(auth: AuthContext, write: EndpointWrite & { url: string; events: string[] }) {
    await this.#check(write, auth.test)
    const now = this.#settings.now().toISOString()
    const secret = newSigningSecret()
    const endpoint: WebhookEndpoint = {
      id: newId('webhookEndpoint'),
      workspace_id: auth.workspace.id,
      test: auth.test,
      url: write.url,
      description: write.description ?? null,
      events: [...new Set(write.events)],
      template_ids: write.template_ids ?? null,
      headers: write.headers ?? {},
      is_default: write.is_default ?? false,
      enabled: write.enabled ?? true,
      secret: this.#box.seal(secret),
      previous_secret: null,
      previous_secret_expires_at: null,
      failing_since: null,
      disabled_reason: null,
      disabled_at: null,
      created_at: now,
      updated_at: now,
    }
    await this.#endpoints.insert(endpoint)
    return { endpoint, secret }
  }

  async update(auth: AuthContext, id: string, write: EndpointWrite): Promise<WebhookEndpoint> {
    const endpoint = await this.get(auth, id)
    await this.#check(write, auth.test)
    const changes: EndpointChanges = { ...write }
    if (write.events) changes.events = [...new Set(write.events)]
    // switched on or off by the owner: the service's own switch-off no longer explains it
    if (write.enabled !== undefined)
      Object.assign(changes, { disabled_reason: null, disabled_at: null, failing_since: null })
    await this.#endpoints.update(endpoint, changes, this.#settings.now().toISOString())
    return this.get(auth, id)
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const endpoint = await this.get(auth, id)
    await this.#endpoints.delete(endpoint, this.#settings.now().toISOString())
  }

  /** A new secret, shown once; the previous one keeps signing for `expirePreviousIn` seconds. */
  async rollSecret(auth: AuthContext, id: string, expirePreviousIn: number) {
    const endpoint = await this.get(auth, id)
    const now = this.#settings.now()
    const secret = newSigningSecret()
    await this.#endpoints.update(
      endpoint,
      {
        secret: this.#box.seal(secret),
        previous_secret: expirePreviousIn > 0 ? endpoint.secret : null,
        previous_secret_expires_at:
          expirePreviousIn > 0 ? new Date(now.getTime() + expirePreviousIn * 1000).toISOString() : null,
      },
      now.toISOString(),
    )
    return { endpoint: await this.get(auth, id), secret }
  }

  /** Queues a test event with sample data of the real shape (SPEC 4.11), to this endpoint only. */
  async sendTest(auth: AuthContext, id: string, type: TestableEventType): Promise<WebhookDelivery> {
    const endpoint = await this.get(auth, id)
    const now = this.#settings.now()
    const event: EventEnvelope = {
      id: newId('event'),
      type,
      created_at: now.toISOString(),
      workspace_id: auth.workspace.id,
      region: this.#region,
      data: sampleEventData(type, now),
      test: true,
    }
    const row = this.#scheduler.row({
      event,
      test: endpoint.test,
      endpointId: endpoint.id,
      url: null,
      manual: true,
    })
    await this.#deliveries.insertMany([row])
    await this.#scheduler.send([{ id: row.id, attempt: 0 }], new Date(row.due_at as string))
    return (await this.#deliveries.getById(row.id))!
  }

  async #check(write: EndpointWrite, test: boolean): Promise<void> {
    const problems = headerProblems(write.headers)
    if (write.url !== undefined) {
      const urlProblem = await endpointUrlProblem(this.#guard, write.url, test)
      if (urlProblem) problems.unshift(urlProblem)
    }
    if (problems.length > 0) throw validationProblem(problems)
  }
}
