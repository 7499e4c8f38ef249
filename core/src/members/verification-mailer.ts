import nodemailer, { type Transporter } from 'nodemailer'
import type { Config } from '../kernel/config.ts'

export interface VerificationMail {
  to: string
  workspaceName: string
  url: string
  expiresAt: string
}

/**
 * Mails verification links through the installation's SMTP server (DOCSVC_SMTP_URL, from
 * DOCSVC_SMTP_FROM). Without one the service mails nothing and the operator passes the link on.
 * The server is the operator's own, so it is reached directly, not through the tenants' outbound
 * guard.
 */
export class VerificationMailer {
  readonly #transport: Transporter | undefined
  readonly #from: string

  constructor({ config }: { config: Pick<Config, 'smtpUrl' | 'smtpFrom'> }) {
    this.#from = config.smtpFrom
    this.#transport = config.smtpUrl
      ? nodemailer.createTransport(config.smtpUrl, {
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        } as never)
      : undefined
  }

  get configured(): boolean {
    return this.#transport !== undefined
  }

  /** Sends the link; false when no SMTP server is configured. Failures reach the caller. */
  async send(mail: VerificationMail): Promise<boolean> {
    if (!this.#transport) return false
    await this.#transport.sendMail({
      from: this.#from,
      to: mail.to,
      subject: `Verify your email address for ${mail.workspaceName}`,
      text: [
        `You were added to the docsvc workspace "${mail.workspaceName}".`,
        '',
        'Open this link to verify your email address:',
        mail.url,
        '',
        `The link works once, until ${mail.expiresAt}.`,
      ].join('\n'),
    })
    return true
  }

  close(): void {
    this.#transport?.close()
  }
}
