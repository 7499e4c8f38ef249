import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ghostscriptPdf, pdfInfoWithPassword, pdfText, qpdfRewrite } from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../../core/src/renders/fake-render-plugins.fixture.ts'
import type { PluginManifest } from '../../core/src/sdk/define-plugin.ts'
import {
  startTestKernel,
  storedText,
  TEST_DIALECTS,
  type TestKernel,
  type TestWorkspace,
} from '../../core/src/testing/index.ts'
import { inputUrlPlugin } from '../../plugins/input-url/src/index.ts'
import { pdfToolsPlugin } from '../../plugins/pdf-tools/src/index.ts'

// Issue 13 item 8: a render's credentials (URL-input basic auth, headers, cookies; protect and
// unlock passwords) are sealed while it runs and gone from the database once it ended, whatever
// the ending; the render record never shows them. The worker runs the stand-in outputs, which
// fetch a URL with its HttpOptions like the browser does.

const BASIC_PASSWORD = 'S3cret-basic-pw-4711'
const HEADER_TOKEN = 'S3cret-header-token-4712'
const COOKIE_VALUE = 'S3cret-cookie-value-4713'
const USER_PASSWORD = 'S3cret-user-pw-4714'
const OWNER_PASSWORD = 'S3cret-owner-pw-4715'
const UNLOCK_PASSWORD = 'S3cret-unlock-pw-4716'
const BASIC_HEADER = `Basic ${Buffer.from(`ann:${BASIC_PASSWORD}`).toString('base64')}`
const SECRETS = [
  BASIC_PASSWORD,
  HEADER_TOKEN,
  COOKIE_VALUE,
  USER_PASSWORD,
  OWNER_PASSWORD,
  UNLOCK_PASSWORD,
  BASIC_HEADER.slice('Basic '.length),
]

const ALPHA = ghostscriptPdf(['Alpha one'])
const ENCRYPTED = qpdfRewrite(ALPHA, ['--encrypt', UNLOCK_PASSWORD, 'other-owner', '256', '--'])
const source = (bytes: Buffer) => ({ data_uri: `data:application/pdf;base64,${bytes.toString('base64')}` })

const http = {
  basic_auth: { username: 'ann', password: BASIC_PASSWORD },
  headers: { 'X-Api-Token': HEADER_TOKEN },
  cookies: [{ name: 'session', value: COOKIE_VALUE }],
}

const foundSecrets = (text: string) => SECRETS.filter((s) => text.includes(s))

let site: Server
let siteUrl: string
/** runs while the page is requested, i.e. while its render is processing */
let duringRequest: () => Promise<void> = async () => {}
let releaseHang: () => void = () => {}

function authorised(req: IncomingMessage): boolean {
  return (
    req.headers.authorization === BASIC_HEADER &&
    req.headers['x-api-token'] === HEADER_TOKEN &&
    req.headers.cookie === `session=${COOKIE_VALUE}`
  )
}

beforeAll(async () => {
  site = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!authorised(req)) return void res.writeHead(401).end('who are you')
    if (req.url === '/report') {
      duringRequest().then(() => res.end('<p>quarterly report</p>'))
    } else if (req.url === '/broken') {
      res.end('fail:navigation_failed')
    } else if (req.url === '/hang') {
      releaseHang = () => res.end('late')
    } else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
})
afterAll(() => {
  releaseHang()
  return new Promise<void>((resolve) => site.close(() => resolve()))
})

describe.each(TEST_DIALECTS)('credentials at rest on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({
      dialect,
      roles: ['api', 'worker'],
      builtins: [...FAKE_RENDER_BUILTINS, inputUrlPlugin, pdfToolsPlugin] as PluginManifest<never>[],
      env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32' },
    })
    ws = await t.createWorkspace({ plan: 'scale' })
    await t.setPlanLimits('scale', { requests_per_second: 10_000 })
  })
  afterAll(() => t?.close())

  const post = (url: string, payload: object, key = ws.liveKey) =>
    t.inject({ method: 'POST', url, key, payload })
  const renderRow = (id: string) =>
    t.kernel.db.kysely.selectFrom('renders').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

  it('a URL render with basic auth, headers and cookies: sealed while it runs, no trace once done', async () => {
    let during: Awaited<ReturnType<typeof renderRow>>[] = []
    duringRequest = async () => {
      during = await t.kernel.db.kysely
        .selectFrom('renders')
        .selectAll()
        .where('status', '=', 'processing')
        .where('input_type', '=', 'url')
        .execute()
    }
    const res = await post('/v1/renders', {
      input: { type: 'url', url: `${siteUrl}/report`, http },
      output: { format: 'pdf' },
      delivery: 'binary',
      reference: 'with credentials',
    })
    duringRequest = async () => {}
    // the server checked every credential: the worker had them in the clear
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('PDF <p>quarterly report</p>')
    const id = res.headers['x-render-id'] as string

    expect(during).toHaveLength(1)
    expect(during[0]!.secrets).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(foundSecrets(JSON.stringify(during[0]))).toEqual([])
    expect(JSON.parse(during[0]!.request).input).toEqual({ type: 'url', url: `${siteUrl}/report` })

    const after = await renderRow(id)
    expect(after.secrets).toBeNull()
    const record = await t.inject({ method: 'GET', url: `/v1/renders/${id}`, key: ws.liveKey })
    expect(record.json()).toMatchObject({ id, status: 'succeeded' })
    expect(foundSecrets(record.body)).toEqual([])
    const stored = await storedText(t)
    expect(stored).toContain('with credentials') // the search does read the render rows
    expect(foundSecrets(stored)).toEqual([])
  })

  it('a failed URL render keeps no credentials either', async () => {
    const res = await post('/v1/renders', {
      input: { type: 'url', url: `${siteUrl}/broken`, http },
      output: { format: 'pdf' },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ code: 'navigation_failed' })
    expect((await renderRow(res.json().render_id)).secrets).toBeNull()
    expect(foundSecrets(await storedText(t))).toEqual([])
  })

  it('a sync render canceled at its timeout while the page hangs: the credentials go with the cancel', async () => {
    const slow = await t.createWorkspace({ plan: 'pro' })
    await t.setPlanLimits('pro', { sync_timeout_seconds: 1, requests_per_second: 10_000 })
    const res = await post(
      '/v1/renders',
      { input: { type: 'url', url: `${siteUrl}/hang`, http }, timeout_behavior: 'cancel' },
      slow.liveKey,
    )
    expect(res.statusCode).toBe(408)
    expect(res.json()).toMatchObject({ code: 'render_timeout' })
    const row = await renderRow(res.json().render_id)
    expect(row.status).toBe('canceled')
    expect(row.secrets).toBeNull()
    expect(foundSecrets(await storedText(t))).toEqual([])
    releaseHang()
  })

  it('protect and unlock passwords: the outputs use them, the database keeps none', async () => {
    const protectedPdf = await post('/v1/pdf-tools/protect', {
      source: source(ALPHA),
      user_password: USER_PASSWORD,
      owner_password: OWNER_PASSWORD,
      delivery: 'binary',
    })
    expect(protectedPdf.statusCode).toBe(200)
    expect(pdfInfoWithPassword(protectedPdf.rawPayload, USER_PASSWORD)?.Encrypted).toMatch(/^yes/)

    const unlocked = await post('/v1/pdf-tools/unlock', {
      source: source(ENCRYPTED),
      password: UNLOCK_PASSWORD,
      delivery: 'binary',
    })
    expect(unlocked.statusCode).toBe(200)
    expect(pdfText(unlocked.rawPayload)).toContain('Alpha one')

    for (const res of [protectedPdf, unlocked]) {
      const id = res.headers['x-render-id'] as string
      expect((await renderRow(id)).secrets).toBeNull()
      const record = await t.inject({ method: 'GET', url: `/v1/renders/${id}`, key: ws.liveKey })
      expect(foundSecrets(record.body)).toEqual([])
    }
    expect(foundSecrets(await storedText(t))).toEqual([])
  })

  it('a render the platform lost (failed by the sweeper) keeps no sealed credentials', async () => {
    const res = await post('/v1/renders', { input: { type: 'url', url: `${siteUrl}/report`, http } })
    const id = res.json().id as string
    // as if its worker died mid-run: processing long ago, credentials still sealed
    await t.kernel.db.kysely
      .updateTable('renders')
      .set({ status: 'processing', secrets: 'v1.aaaa.bbbb.cccc', updated_at: '2020-01-01T00:00:00.000Z' })
      .where('id', '=', id)
      .execute()
    await t.kernel.container.cradle.renderSweeper.sweep()
    const row = await renderRow(id)
    expect(row.status).toBe('failed')
    expect(JSON.parse(row.error!).code).toBe('render_lost')
    expect(row.secrets).toBeNull()
  })

  it('a zero-retention render keeps nothing of its document, data or options once it ended', async () => {
    const content = 'zero-retention-content-4717'
    const customer = 'Zed Customer 4718'
    const res = await post('/v1/renders', {
      input: { type: 'html', html: content },
      data: { customer },
      output: { format: 'pdf', pdf: { scale: 0.5 } },
      filename: 'for-zed-4719.pdf',
      retention_days: 0,
      delivery: 'binary',
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe(`PDF ${content}`)
    const row = await renderRow(res.headers['x-render-id'] as string)
    expect(JSON.parse(row.request)).toMatchObject({
      input: { type: 'html' },
      data: null,
      output: { format: 'pdf' },
      delivery: { type: 'binary' },
      filename: null,
    })
    // (the file's name stays: the record lists its files, as SPEC 2.4 says)
    const stored = await storedText(t)
    for (const kept of [content, customer, '"scale"']) expect(stored).not.toContain(kept)
  })
})
