import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ReceivedEmail } from '@docsvc/core/testing'
import { runEmailContract, runStorageContract } from '@docsvc/core/testing'
import { type AddressObject, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { describe, expect, it } from 'vitest'
import { accessFileFor, deliveryPlugin, folderStorage, smtpEmail } from './index.js'

// The example plugin's providers pass the same contract kits as docsvc's own: the drop folder
// against a real folder, SMTP against a loopback smtp-server that parses what it receives.

describe('the delivery example plugin registers through definePlugin', () => {
  it('adds exactly what its manifest provides', () => {
    const added: Record<string, string[]> = {}
    const registry = (point: string) => ({
      add(key: string) {
        added[point] = [...(added[point] ?? []), key]
      },
    })
    deliveryPlugin.register({
      registries: {
        storageProviders: registry('storageProviders'),
        emailProviders: registry('emailProviders'),
      },
    } as never)
    expect(added).toEqual(deliveryPlugin.provides)
  })
})

describe('the drop folder beyond the contract', () => {
  it('refuses a path through a symlink that leads out of the share, and writes nothing there', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'docsvc-drop-'))
    const outside = mkdtempSync(path.join(tmpdir(), 'docsvc-outside-'))
    const token = 'drop-folder-token-0123456789'
    writeFileSync(path.join(root, '.docsvc-access'), accessFileFor(token))
    symlinkSync(outside, path.join(root, 'escape'))
    try {
      const folder = folderStorage.create(
        { config: { root, max_object_bytes: 1024 }, credentials: { access_token: token } },
        { log: { info() {}, warn() {}, error() {}, debug() {} } },
      )
      const attempt = folder.put({ bytes: Buffer.from('x') }, 'escape/sub/a.pdf', 'application/pdf', {
        signal: AbortSignal.timeout(5000),
      })
      await expect(attempt).rejects.toMatchObject({ kind: 'permanent', reason: 'invalid_path' })
      expect(readdirSync(outside)).toEqual([])
    } finally {
      rmSync(root, { recursive: true, force: true })
      rmSync(outside, { recursive: true, force: true })
    }
  })
})

runStorageContract('drop folder (examples/plugin-delivery)', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'docsvc-drop-'))
  const token = 'drop-folder-token-0123456789'
  writeFileSync(path.join(root, '.docsvc-access'), accessFileFor(token))
  const config = { root, max_object_bytes: 1024 * 1024 }
  return {
    factory: folderStorage,
    settings: { config, credentials: { access_token: token } },
    permanentFault: { config, credentials: { access_token: 'not-the-folder-token-9876' } },
    transientFault: {
      config: { ...config, root: path.join(root, 'unmounted') },
      credentials: { access_token: token },
    },
    readBack: async (_stored, at) => {
      const bytes = await readFile(path.join(root, at)).catch(() => undefined)
      return bytes && { bytes }
    },
    close: async () => rmSync(root, { recursive: true, force: true }),
  }
})

/** a port nothing listens on: bound, then closed */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  [field ?? []].flat().flatMap((group) => group.value.map((a) => a.address ?? ''))

runEmailContract('SMTP (examples/plugin-delivery)', async () => {
  const password = 'smtp-password-s3cret'
  const mailboxes = new Map<string, ReceivedEmail[]>()
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'docsvc' && auth.password === password) callback(null, { user: 'docsvc' })
      else callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }))
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        const received: ReceivedEmail = {
          from: addresses(mail.from)[0] ?? '',
          to: addresses(mail.to),
          cc: addresses(mail.cc),
          replyTo: addresses(mail.replyTo)[0],
          subject: mail.subject ?? '',
          ...(mail.text !== undefined ? { text: mail.text } : {}),
          ...(typeof mail.html === 'string' ? { html: mail.html } : {}),
          attachments: mail.attachments.map((a) => ({
            filename: a.filename ?? '',
            contentType: a.contentType,
            bytes: a.content,
          })),
        }
        for (const rcpt of session.envelope.rcptTo) {
          mailboxes.set(rcpt.address, [...(mailboxes.get(rcpt.address) ?? []), received])
        }
        callback()
      }, callback)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as { port: number }
  const config = {
    host: '127.0.0.1',
    port,
    username: 'docsvc',
    require_tls: false,
    attachment_budget_bytes: 6 * 1024 * 1024,
    max_per_second: 10,
  }
  let count = 0
  return {
    factory: smtpEmail,
    settings: { config, credentials: { password } },
    permanentFault: { config, credentials: { password: 'wrong-password-value' } },
    transientFault: { config: { ...config, port: await closedPort() }, credentials: { password } },
    from: { address: 'billing@example.test', name: 'Billing' },
    newRecipient: () => ({ address: `r${++count}-${Date.now().toString(36)}@example.test` }),
    received: async (address) => mailboxes.get(address) ?? [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
})
