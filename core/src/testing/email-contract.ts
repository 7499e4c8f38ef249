import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  type DeliveryWebhookRequest,
  EMAIL_PROBE_STEPS,
  type EmailAddress,
  EmailFailure,
  type EmailMessage,
  type EmailProvider,
  type EmailProviderFactory,
  type SentEmail,
} from '../sdk/email-contracts.ts'
import {
  expectFailure,
  expectNoCredentials,
  expectProbeShape,
  expectSchemas,
  type ProviderSettings,
  shownText,
} from './provider-contract-checks.ts'
import { providerContractFixture } from './provider-contract-fixture.ts'

// The one suite every email provider passes, against a real receiving end the subject sets up
// (a loopback SMTP server, a local server speaking a provider's documented HTTP API).

/** One message as the receiving mailbox got it. */
export interface ReceivedEmail {
  from: string
  /** the visible To and Cc addresses (never a Bcc) */
  to: string[]
  cc: string[]
  replyTo: string | undefined
  subject: string
  text?: string
  html?: string
  attachments: { filename: string; contentType: string; bytes: Buffer }[]
}

export interface EmailContractSubject {
  factory: EmailProviderFactory
  /** a connection that works */
  settings: ProviderSettings
  /** refused credentials */
  permanentFault: ProviderSettings
  /** an unreachable or overloaded provider */
  transientFault: ProviderSettings
  /** a sender the provider accepts */
  from: EmailAddress
  /** a new address whose mailbox starts empty */
  newRecipient(): EmailAddress
  /** what `address` received so far, oldest first */
  received(address: string): Promise<ReceivedEmail[]>
  /** with capabilities.deliveryEvents: a webhook call reporting `sent` delivered, signed and forged */
  deliveryWebhook?(
    sent: SentEmail,
    recipient: string,
  ): { signed: DeliveryWebhookRequest; forged: DeliveryWebhookRequest }
  close(): Promise<void>
}

const options = (extra: { sandbox?: boolean } = {}) => ({ signal: AbortSignal.timeout(20_000), ...extra })

export function runEmailContract(name: string, setup: () => Promise<EmailContractSubject>): void {
  describe(`email contract: ${name}`, () => {
    const fx = providerContractFixture<EmailContractSubject, EmailProvider>(setup, 'docsvc-email-contract-')
    const { provider, secrets } = fx
    const message = (to: EmailAddress[], extra: Partial<EmailMessage> = {}): EmailMessage => ({
      from: fx.subject.from,
      to,
      subject: 'Your invoice',
      text: 'Attached.',
      ...extra,
    })

    it('declares write-only credential fields, its capabilities and limits within SPEC 2.9', () => {
      const { factory } = fx.subject
      expect(factory.id).toMatch(/^[a-z][a-z0-9_-]*$/)
      expectSchemas(factory, [fx.subject.settings, fx.subject.permanentFault, fx.subject.transientFault])
      expect(factory.attachmentBudget.defaultBytes).toBeLessThanOrEqual(factory.attachmentBudget.maxBytes)
      const { limits } = provider()
      expect(limits.attachmentBudgetBytes).toBeGreaterThan(0)
      expect(limits.attachmentBudgetBytes).toBeLessThanOrEqual(factory.attachmentBudget.maxBytes)
      expect(limits.maxPerSecond).toBeGreaterThanOrEqual(1)
      expect(limits.maxPerSecond).toBeLessThanOrEqual(100)
      expect(typeof provider().parseDeliveryEvents === 'function').toBe(factory.capabilities.deliveryEvents)
    })

    it('delivers to To, Cc and Bcc with text, html and attachments from memory and from disk', async () => {
      const [to, cc, bcc] = [fx.subject.newRecipient(), fx.subject.newRecipient(), fx.subject.newRecipient()]
      const pdf = Buffer.from('%PDF-1.7\n% invoice\n')
      const onDisk = path.join(fx.scratch, 'page.png')
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3])
      writeFileSync(onDisk, png)
      const sent = await provider().send(
        message([to], {
          cc: [cc],
          bcc: [bcc],
          replyTo: { address: fx.subject.from.address },
          subject: 'Invoice INV-7 ✓',
          html: '<p>Attached: <b>INV-7</b></p>',
          attachments: [
            { filename: 'INV-7.pdf', contentType: 'application/pdf', bytes: pdf },
            { filename: 'page-1.png', contentType: 'image/png', path: onDisk, size: png.length },
          ],
        }),
        options(),
      )
      expect(sent.providerMessageId).toMatch(/\S/)
      expect(sent.sandboxed).toBe(false)
      expect([...sent.accepted].sort()).toEqual([to.address, cc.address, bcc.address].sort())
      for (const address of [to.address, cc.address, bcc.address]) {
        const [got, ...more] = await fx.subject.received(address)
        expect(more).toEqual([])
        expect(got).toMatchObject({
          subject: 'Invoice INV-7 ✓',
          to: [to.address],
          cc: [cc.address],
          replyTo: fx.subject.from.address,
        })
        expect(got!.text?.trim()).toBe('Attached.')
        expect(got!.html).toContain('<b>INV-7</b>')
        expect(got!.attachments.map((a) => [a.filename, a.contentType, a.bytes])).toEqual([
          ['INV-7.pdf', 'application/pdf', pdf],
          ['page-1.png', 'image/png', png],
        ])
      }
    })

    it('refuses attachments over the budget, for good, and sends nothing', async () => {
      const uploader = provider()
      const to = fx.subject.newRecipient()
      const half = Math.ceil(uploader.limits.attachmentBudgetBytes / 2) + 1
      await expectFailure(
        uploader.send(
          message([to], {
            attachments: [
              { filename: 'a.pdf', contentType: 'application/pdf', bytes: Buffer.alloc(half) },
              { filename: 'b.pdf', contentType: 'application/pdf', bytes: Buffer.alloc(half) },
            ],
          }),
          options(),
        ),
        EmailFailure,
        'permanent',
        'too_large',
      )
      expect(await fx.subject.received(to.address)).toEqual([])
    })

    it('refuses a message without recipients or body, for good', async () => {
      await expectFailure(
        provider().send(message([]), options()),
        EmailFailure,
        'permanent',
        'invalid_message',
      )
      const to = fx.subject.newRecipient()
      const { text: _, ...noBody } = message([to])
      await expectFailure(provider().send(noBody, options()), EmailFailure, 'permanent', 'invalid_message')
    })

    it('sandboxes only when it can: checked and not delivered, or refused (never ignored)', async () => {
      const to = fx.subject.newRecipient()
      const attempt = provider().send(message([to]), options({ sandbox: true }))
      if (fx.subject.factory.capabilities.sandbox) expect((await attempt).sandboxed).toBe(true)
      else await expectFailure(attempt, EmailFailure, 'permanent', 'invalid_message')
      expect(await fx.subject.received(to.address)).toEqual([])
    })

    it('passes its probe, and with send_to delivers a test email', async () => {
      const uploader = provider()
      const plain = await uploader.probe({ ...options(), from: fx.subject.from })
      expect(plain.ok).toBe(true)
      expect(plain.steps.map((s) => s.name).every((n) => EMAIL_PROBE_STEPS.includes(n as never))).toBe(true)
      expect(plain.steps.map((s) => s.name)).not.toContain('send')
      expectProbeShape(
        plain,
        plain.steps.map((s) => s.name),
      )

      const sendTo = fx.subject.newRecipient()
      const withSend = await uploader.probe({ ...options(), from: fx.subject.from, sendTo })
      expectProbeShape(withSend, [...plain.steps.map((s) => s.name), 'send'])
      expect(withSend.ok).toBe(true)
      expect(await fx.subject.received(sendTo.address)).toHaveLength(1)
    })

    it('fails its probe with refused credentials, without showing them', async () => {
      const report = await provider(fx.subject.permanentFault).probe({ ...options(), from: fx.subject.from })
      expect(report.ok).toBe(false)
      expectProbeShape(
        report,
        report.steps.map((s) => s.name),
      )
      expectNoCredentials('the probe report', JSON.stringify(report), secrets())
    })

    it('classifies failures as permanent or transient, without showing a credential', async () => {
      const to = fx.subject.newRecipient()
      const permanent = await expectFailure(
        provider(fx.subject.permanentFault).send(message([to]), options()),
        EmailFailure,
        'permanent',
        'access_denied',
      )
      const transient = await expectFailure(
        provider(fx.subject.transientFault).send(message([to]), options()),
        EmailFailure,
        'transient',
      )
      expectNoCredentials('a permanent failure', shownText(permanent), secrets())
      expectNoCredentials('a transient failure', shownText(transient), secrets())
      expect(await fx.subject.received(to.address)).toEqual([])
    })

    it('reads signed delivery events and refuses forged ones (providers with delivery events)', async (ctx) => {
      if (!fx.subject.factory.capabilities.deliveryEvents) return ctx.skip()
      const to = fx.subject.newRecipient()
      const uploader = provider()
      const sent = await uploader.send(message([to]), options())
      const { signed, forged } = fx.subject.deliveryWebhook!(sent, to.address)
      expect(uploader.parseDeliveryEvents!(signed)).toEqual([
        expect.objectContaining({
          providerMessageId: sent.providerMessageId,
          type: 'delivered',
          recipient: to.address,
        }),
      ])
      expect(() => uploader.parseDeliveryEvents!(forged)).toThrow(EmailFailure)
    })
  })
}
