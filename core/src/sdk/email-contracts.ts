import type { Static, TObject } from 'typebox'
import type { PluginLogger } from './define-plugin.ts'
import {
  type ByteSource,
  type FailureKind,
  type ProbeReport,
  ProviderFailure,
  sourceSize,
} from './provider-contracts.ts'

// An email connection (SPEC 2.9, 4.8) is an instance of a provider factory. Core renders the
// rule, picks the attachments, applies test modes (sandbox, redirect with `[Test] `, skip),
// paces sends to the connection's rate and retries transient failures; the provider delivers.

/** The steps of a connection test, in order; `send` only when the test names `send_to`. */
export const EMAIL_PROBE_STEPS = ['credentials', 'smtp_auth', 'send'] as const

export type EmailFailureReason =
  /** credentials refused (a connection with it becomes `failing`) */
  | 'access_denied'
  /** the sender is not verified at the provider */
  | 'sender_refused'
  /** every recipient was refused */
  | 'recipients_refused'
  /** the message is larger than the provider or the connection's budget takes */
  | 'too_large'
  /** a malformed message (no recipient, no body) */
  | 'invalid_message'
  /** network, timeouts, 4xx SMTP replies, 5xx HTTP */
  | 'unavailable'
  /** throttled by the provider */
  | 'rate_limited'
  /** a delivery-event webhook whose signature does not verify */
  | 'signature_invalid'

export class EmailFailure extends ProviderFailure {
  declare readonly reason: EmailFailureReason

  constructor(kind: FailureKind, reason: EmailFailureReason, message: string, options?: { cause?: unknown }) {
    super(kind, reason, message, options)
    this.name = 'EmailFailure'
  }
}

export interface EmailAddress {
  address: string
  name?: string
}

export type EmailAttachment = { filename: string; contentType: string } & ByteSource

export interface EmailMessage {
  from: EmailAddress
  to: EmailAddress[]
  cc?: EmailAddress[]
  bcc?: EmailAddress[]
  replyTo?: EmailAddress
  subject: string
  text?: string
  html?: string
  attachments?: EmailAttachment[]
}

export interface EmailLimits {
  /** bytes of attached files per email (SPEC 2.9 attachment_budget_bytes, within the provider's maximum) */
  attachmentBudgetBytes: number
  /** sends per second the kernel paces this connection to (SPEC 2.9 max_per_second) */
  maxPerSecond: number
}

/**
 * The one place for the message rules every provider shares: at least one recipient, a
 * subject, a body, and attachments within the budget. Throws a permanent EmailFailure.
 */
export function checkEmailMessage(limits: EmailLimits, message: EmailMessage): void {
  const invalid = (why: string) => {
    throw new EmailFailure('permanent', 'invalid_message', why)
  }
  if (message.to.length + (message.cc?.length ?? 0) + (message.bcc?.length ?? 0) === 0)
    invalid('no recipient')
  if (message.text === undefined && message.html === undefined) invalid('neither text nor html')
  const attached = (message.attachments ?? []).reduce((sum, file) => sum + sourceSize(file), 0)
  if (attached > limits.attachmentBudgetBytes) {
    throw new EmailFailure(
      'permanent',
      'too_large',
      `attachments have ${attached} bytes; the connection's budget is ${limits.attachmentBudgetBytes}`,
    )
  }
}

export interface EmailSendOptions {
  signal: AbortSignal
  /** check without delivering (SPEC 2.9 test_mode `sandbox`); only when capabilities.sandbox */
  sandbox?: boolean
}

export interface SentEmail {
  /** the provider's id of the message, which delivery events refer to */
  providerMessageId: string
  /** addresses the provider accepted; refused ones are in `rejected` */
  accepted: string[]
  rejected: string[]
  /** true when the provider checked it in sandbox mode and delivered nothing */
  sandboxed: boolean
}

export type DeliveryEventType =
  | 'delivered'
  | 'deferred'
  | 'bounced'
  | 'blocked'
  | 'complained'
  | 'invalid_address'

export interface DeliveryEvent {
  providerMessageId: string
  type: DeliveryEventType
  recipient: string
  at: Date
  detail?: string
}

/** A provider's webhook call, as core's delivery-event route received it. */
export interface DeliveryWebhookRequest {
  headers: Record<string, string | undefined>
  body: Buffer
}

export interface EmailProbeOptions {
  signal: AbortSignal
  /** adds the `send` step: a real test email to this address */
  sendTo?: EmailAddress
  /** the connection's default sender, used by the `send` step */
  from: EmailAddress
}

export interface EmailProbeReport extends ProbeReport {
  /** verified senders the test found (SPEC 2.9 `senders`), when the provider lists them */
  senders?: string[]
}

/** One connection's sender, built from its settings. */
export interface EmailProvider {
  readonly limits: EmailLimits
  /** Delivers one message (checked with checkEmailMessage first). Failures are EmailFailures. */
  send(message: EmailMessage, options: EmailSendOptions): Promise<SentEmail>
  /** the connection test: EMAIL_PROBE_STEPS (see runProbeSteps); never throws */
  probe(options: EmailProbeOptions): Promise<EmailProbeReport>
  /**
   * Present for providers with delivery events: verifies and reads one webhook call into
   * events. A bad signature is a permanent EmailFailure `signature_invalid`.
   */
  parseDeliveryEvents?(request: DeliveryWebhookRequest): DeliveryEvent[]
  close?(): Promise<void>
}

export interface EmailCapabilities {
  /** can check a message without delivering it (test_mode `sandbox`) */
  sandbox: boolean
  /** test renders may be redirected to a member's address (core rewrites the recipients) */
  redirect: boolean
  /** reports delivered, bounced, complained... through parseDeliveryEvents */
  deliveryEvents: boolean
}

export interface EmailProviderContext {
  log: PluginLogger
}

/** What a plugin registers under `emailProviders`: one provider kind (SPEC 2.9 `provider`). */
export interface EmailProviderFactory<C extends TObject = TObject, K extends TObject = TObject> {
  readonly id: string
  readonly capabilities: EmailCapabilities
  /** SPEC 2.9's attachment_budget_bytes default and maximum for this kind */
  readonly attachmentBudget: { defaultBytes: number; maxBytes: number }
  readonly configSchema: C
  /** every field made with CredentialField (write-only) */
  readonly credentialsSchema: K
  create(settings: { config: Static<C>; credentials: Static<K> }, ctx: EmailProviderContext): EmailProvider
}
