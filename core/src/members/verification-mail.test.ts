import { type AddressObject, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig, printableConfig } from '../kernel/config.ts'
import { startTestKernel, type TestKernel } from '../testing/index.ts'

const TOKEN = 'operator-secret-token-0123456789abcdef'
const PASSWORD = 'smtp-password-s3cret'

interface Received {
  from: string
  to: string[]
  subject: string
  text: string
}

/** A real SMTP server on loopback that keeps what it is sent and refuses bounce@example.com. */
async function startSmtp() {
  const received: Received[] = []
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'docsvc' && auth.password === PASSWORD) callback(null, { user: 'docsvc' })
      else callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }))
    },
    onRcptTo(address, _session, callback) {
      if (address.address === 'bounce@example.com') {
        callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }))
      } else callback()
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        const addresses = (field: AddressObject | AddressObject[] | undefined) =>
          [field ?? []].flat().flatMap((group) => group.value.map((a) => a.address ?? ''))
        received.push({
          from: addresses(mail.from)[0] ?? '',
          to: addresses(mail.to),
          subject: mail.subject ?? '',
          text: mail.text ?? '',
        })
        callback()
      }, callback)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as { port: number }
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe('verification links mailed through the installation SMTP server', () => {
  let t: TestKernel
  let smtp: Awaited<ReturnType<typeof startSmtp>>
  const admin = (url: string, payload?: object) =>
    t.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${TOKEN}` },
      ...(payload ? { payload } : {}),
    })

  beforeAll(async () => {
    smtp = await startSmtp()
    t = await startTestKernel({
      dialect: 'sqlite',
      env: {
        DOCSVC_OPERATOR_TOKEN: TOKEN,
        DOCSVC_SMTP_URL: `smtp://docsvc:${PASSWORD}@127.0.0.1:${smtp.port}`,
        DOCSVC_SMTP_FROM: 'docsvc <no-reply@example.com>',
      },
    })
  })
  afterAll(async () => {
    await t.close()
    await smtp.close()
  })

  it('mails the link to the member; the mailed link verifies', async () => {
    const ws = await t.createWorkspace({ name: 'Acme', verifiedOwner: false })
    const res = await admin(`/admin/v1/workspaces/${ws.workspace.id}/members`, { email: 'ada@example.com' })
    expect(res.statusCode).toBe(201)
    const { verification } = res.json()
    expect(verification).toMatchObject({ mailed: true, url: expect.stringContaining('/verify-email/') })
    expect(smtp.received).toHaveLength(1)
    const mail = smtp.received[0]!
    expect(mail).toMatchObject({
      from: 'no-reply@example.com',
      to: ['ada@example.com'],
      subject: 'Verify your email address for Acme',
    })
    expect(mail.text).toContain(verification.url)
    const opened = await t.inject({ method: 'POST', url: new URL(verification.url).pathname })
    expect(opened.json()).toMatchObject({ status: 'verified', email: 'ada@example.com' })
  })

  it("a refused mail still gives the operator the link, with the server's reason", async () => {
    const ws = await t.createWorkspace({ verifiedOwner: false })
    const res = await admin(`/admin/v1/workspaces/${ws.workspace.id}/members`, {
      email: 'bounce@example.com',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().verification).toMatchObject({
      mailed: false,
      mail_error: expect.stringContaining('mailbox unavailable'),
      url: expect.stringContaining('/verify-email/'),
    })
  })
})

describe('SMTP settings', () => {
  it('masks the password in config print and needs a sender with the URL', () => {
    const config = loadConfig({
      DOCSVC_SMTP_URL: 'smtp://docsvc:pa55word@mail.example.com:587',
      DOCSVC_SMTP_FROM: 'no-reply@example.com',
    })
    expect(printableConfig(config).smtpUrl).toBe('smtp://docsvc:***@mail.example.com:587')
    expect(() => loadConfig({ DOCSVC_SMTP_URL: 'smtp://mail.example.com:587' })).toThrow(
      /DOCSVC_SMTP_FROM: required with DOCSVC_SMTP_URL/,
    )
    expect(() =>
      loadConfig({ DOCSVC_SMTP_URL: 'mail.example.com', DOCSVC_SMTP_FROM: 'a@b.example' }),
    ).toThrow(/DOCSVC_SMTP_URL: must look like smtp:\/\/user:password@host:587/)
  })
})
