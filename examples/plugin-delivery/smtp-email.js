// @ts-check
// An email provider of the example plugin: SMTP through nodemailer, one connection per send
// (the kernel paces sends to `max_per_second`). No sandbox and no delivery events: SMTP has
// neither, so a sandboxed send is refused rather than delivered.
import { CredentialField, checkEmailMessage, EmailFailure, runProbeSteps } from '@docsvc/core/sdk'
import nodemailer from 'nodemailer'
import { Type } from 'typebox'

const MiB = 1024 * 1024

export const SmtpConfig = Type.Object({
  host: Type.String({ minLength: 1, maxLength: 253 }),
  port: Type.Integer({ minimum: 1, maximum: 65535, default: 587 }),
  username: Type.String({ minLength: 1, maxLength: 320 }),
  /** STARTTLS before authenticating; false uses it only when the server offers it (a relay on the same host) */
  require_tls: Type.Boolean({ default: true }),
  attachment_budget_bytes: Type.Integer({ minimum: 1, maximum: 25 * MiB, default: 6 * MiB }),
  max_per_second: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
})

export const SmtpCredentials = Type.Object({ password: CredentialField({ maxLength: 1024 }) })

/** @typedef {import('typebox').Static<typeof SmtpConfig>} SmtpSettings */
/** @typedef {Error & { code?: string, responseCode?: number, response?: string }} SmtpError */

/**
 * SMTP's own split: 4xx replies and lost connections are transient, 5xx for good. The message
 * is ours plus the server's reply, with the password cut out should a server echo it.
 * @param {unknown} error
 * @param {string} password
 */
function classify(error, password) {
  if (error instanceof EmailFailure) return error
  const smtp = /** @type {SmtpError} */ (error)
  const reply = (smtp.response ?? '').split(password).join('***').slice(0, 300)
  const said = reply ? `: ${reply}` : ''
  const code = smtp.responseCode ?? 0
  if (smtp.code === 'EAUTH') {
    return code >= 400 && code < 500
      ? new EmailFailure('transient', 'unavailable', `the server could not check the login now${said}`)
      : new EmailFailure('permanent', 'access_denied', `the server refused the login${said}`)
  }
  if (code >= 400 && code < 500)
    return new EmailFailure('transient', 'unavailable', `the server deferred${said}`)
  if (smtp.code === 'EENVELOPE' && code >= 500) {
    return /sender|from/i.test(reply)
      ? new EmailFailure('permanent', 'sender_refused', `the server refused the sender${said}`)
      : new EmailFailure('permanent', 'recipients_refused', `the server refused the recipients${said}`)
  }
  if (code === 552) return new EmailFailure('permanent', 'too_large', `the server refused the size${said}`)
  if (code >= 500)
    return new EmailFailure('permanent', 'invalid_message', `the server refused the message${said}`)
  return new EmailFailure('transient', 'unavailable', `could not reach the server (${smtp.code ?? 'error'})`)
}

/** @param {import('@docsvc/core/sdk').EmailAddress} a */
const address = (a) => (a.name ? { name: a.name, address: a.address } : a.address)

/**
 * @param {{ config: SmtpSettings, credentials: { password: string } }} settings
 * @returns {import('@docsvc/core/sdk').EmailProvider}
 */
export function createSmtpEmail({ config, credentials }) {
  const limits = {
    attachmentBudgetBytes: config.attachment_budget_bytes,
    maxPerSecond: config.max_per_second,
  }
  const transport = () =>
    nodemailer.createTransport({
      host: config.host,
      port: config.port,
      secure: false,
      requireTLS: config.require_tls,
      auth: { user: config.username, pass: credentials.password },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    })

  /**
   * Runs one SMTP exchange; an abort rejects at once (the connection ends by its timeouts).
   * @template T
   * @param {AbortSignal} signal
   * @param {(t: ReturnType<typeof transport>) => Promise<T>} exchange
   * @returns {Promise<T>}
   */
  async function withTransport(signal, exchange) {
    signal.throwIfAborted()
    const t = transport()
    try {
      return await Promise.race([
        exchange(t),
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        ),
      ])
    } catch (error) {
      throw signal.aborted ? error : classify(error, credentials.password)
    } finally {
      t.close()
    }
  }

  /**
   * @param {import('@docsvc/core/sdk').EmailMessage} message
   * @param {AbortSignal} signal
   */
  async function deliver(message, signal) {
    checkEmailMessage(limits, message)
    const info = await withTransport(signal, (t) =>
      t.sendMail({
        from: address(message.from),
        to: message.to.map(address),
        cc: (message.cc ?? []).map(address),
        bcc: (message.bcc ?? []).map(address),
        ...(message.replyTo ? { replyTo: address(message.replyTo) } : {}),
        subject: message.subject,
        ...(message.text !== undefined ? { text: message.text } : {}),
        ...(message.html !== undefined ? { html: message.html } : {}),
        attachments: (message.attachments ?? []).map((file) => ({
          filename: file.filename,
          contentType: file.contentType,
          ...('bytes' in file ? { content: file.bytes } : { path: file.path }),
        })),
      }),
    )
    const plain = (/** @type {unknown[]} */ list) =>
      list.map((a) => (typeof a === 'string' ? a : /** @type {{ address: string }} */ (a).address))
    return {
      providerMessageId: info.messageId,
      accepted: plain(info.accepted),
      rejected: plain(info.rejected),
      sandboxed: false,
    }
  }

  return {
    limits,
    async send(message, { signal, sandbox }) {
      if (sandbox)
        throw new EmailFailure(
          'permanent',
          'invalid_message',
          'SMTP has no sandbox; use test_mode redirect or skip',
        )
      return deliver(message, signal)
    },
    async probe({ signal, sendTo, from }) {
      /** @type {[string, () => Promise<string | undefined>][]} */
      const steps = [
        [
          'smtp_auth',
          async () => {
            await withTransport(signal, (t) => t.verify())
            return `logged in to ${config.host}:${config.port} as ${config.username}`
          },
        ],
      ]
      if (sendTo) {
        steps.push([
          'send',
          async () => {
            const sent = await deliver(
              { from, to: [sendTo], subject: 'docsvc test email', text: 'This connection can send email.' },
              signal,
            )
            return `sent as ${sent.providerMessageId}`
          },
        ])
      }
      return runProbeSteps(steps)
    },
  }
}

/** @type {import('@docsvc/core/sdk').EmailProviderFactory<typeof SmtpConfig, typeof SmtpCredentials>} */
export const smtpEmail = {
  id: 'example_smtp',
  capabilities: { sandbox: false, redirect: true, deliveryEvents: false },
  attachmentBudget: { defaultBytes: 6 * MiB, maxBytes: 25 * MiB },
  configSchema: SmtpConfig,
  credentialsSchema: SmtpCredentials,
  create: (settings) => createSmtpEmail(settings),
}
