import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'
import { type FileUrlClaims, FileUrlSigner } from './file-url-signer.ts'

const SECRET = 'x'.repeat(48)
const PUBLIC_URL = 'https://docs.example.test'

describe.each(TEST_DIALECTS)('GET /files/:token on %s', (dialect) => {
  let t: TestKernel
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(200_000)])
  const key = 'ws_test/rnd_test/file_test.pdf'

  const claims = (over: Partial<FileUrlClaims> = {}): FileUrlClaims => ({
    key,
    contentType: 'application/pdf',
    filename: 'Rechnung März.pdf',
    disposition: 'inline',
    expiresAt: new Date(Date.now() + 3600_000),
    ...over,
  })
  // the path of a signed URL, as a client would request it
  const pathOf = (url: string) => {
    expect(url.startsWith(`${PUBLIC_URL}/files/`)).toBe(true)
    return url.slice(PUBLIC_URL.length)
  }
  const sign = (over: Partial<FileUrlClaims> = {}) =>
    pathOf(t.kernel.container.cradle.fileUrlSigner.url(claims(over)))

  beforeAll(async () => {
    t = await startTestKernel({ dialect, env: { DOCSVC_SECRET_KEY: SECRET, DOCSVC_PUBLIC_URL: PUBLIC_URL } })
    await t.kernel.container.cradle.fileStore.put(key, pdf, 'application/pdf')
  })
  afterAll(() => t?.close())

  it('streams the file without an API key, with its type, length, name, caching and ETag', async () => {
    const res = await t.inject({ method: 'GET', url: sign() })
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.equals(pdf)).toBe(true)
    expect(res.headers['content-type']).toBe('application/pdf')
    expect(res.headers['content-length']).toBe(String(pdf.length))
    expect(res.headers['content-disposition']).toBe(
      `inline; filename="Rechnung M_rz.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf`,
    )
    expect(res.headers['cache-control']).toMatch(/^private, max-age=(359\d|3600)$/)
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/)
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    // Chrome's PDF viewer refuses sandboxed documents
    expect(res.headers['content-security-policy']).toBeUndefined()
  })

  it('sandboxes HTML files, so they cannot run script with the API origin', async () => {
    const html = 'ws_test/rnd_test/file_page.html'
    await t.kernel.container.cradle.fileStore.put(html, Buffer.from('<script>alert(1)</script>'), 'text/html')
    const res = await t.inject({
      method: 'GET',
      url: sign({ key: html, contentType: 'text/html; charset=utf-8', filename: 'page.html' }),
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-security-policy']).toBe('sandbox')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
  })

  it('asks for a download with the attachment disposition', async () => {
    const res = await t.inject({ method: 'GET', url: sign({ disposition: 'attachment' }) })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="Rechnung M_rz\.pdf"; filename\*=/,
    )
    expect(res.rawPayload.equals(pdf)).toBe(true)
  })

  it('serves URLs whose long non-ASCII names make tokens far longer than a default path parameter', async () => {
    const filename = `${'発注書'.repeat(80)}.pdf`
    const url = sign({ filename })
    expect(url.length).toBeGreaterThan(1000)
    const res = await t.inject({ method: 'GET', url })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(filename)}`)
  })

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.inject({ method: 'HEAD', url: sign() })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-length']).toBe(String(pdf.length))
    expect(res.headers['content-type']).toBe('application/pdf')
    expect(res.rawPayload.length).toBe(0)
  })

  it('answers 304 to a matching If-None-Match', async () => {
    const url = sign()
    const first = await t.inject({ method: 'GET', url })
    const again = await t.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(first.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
    expect(again.rawPayload.length).toBe(0)
    expect(again.headers.etag).toBe(first.headers.etag)
  })

  it('answers an expired URL with 410 file_expired as problem+json', async () => {
    const res = await t.inject({ method: 'GET', url: sign({ expiresAt: new Date(Date.now() - 1000) }) })
    expect(res.statusCode).toBe(410)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ status: 410, code: 'file_expired', title: 'File expired' })
    expect(res.json().request_id).toBe(res.headers['x-request-id'])
  })

  it('answers a tampered or malformed URL with the same 404 not_found', async () => {
    const good = sign()
    const token = good.slice('/files/'.length)
    const [payload, signature] = token.split('.') as [string, string]
    const otherFile = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload, 'base64url').toString()),
        k: 'ws_other/rnd_x/file_y.pdf',
      }),
    ).toString('base64url')
    const forged = new FileUrlSigner({ publicUrl: PUBLIC_URL, secretKey: 'y'.repeat(48) }).url(claims())
    const bodies = []
    for (const url of [
      `/files/${otherFile}.${signature}`,
      `/files/${payload}.${'A'.repeat(43)}`,
      pathOf(forged),
      '/files/nonsense',
    ]) {
      const res = await t.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(404)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      const { request_id: _id, ...body } = res.json()
      bodies.push(body)
    }
    expect(bodies[0]).toMatchObject({ code: 'not_found', detail: 'No such file.' })
    for (const body of bodies) expect(body).toEqual(bodies[0])
  })

  it('answers 410 file_expired once the object is deleted, while the URL is still valid', async () => {
    const gone = 'ws_test/rnd_gone/file_gone.png'
    const { fileStore } = t.kernel.container.cradle
    await fileStore.put(gone, Buffer.from('png bytes'), 'image/png')
    const url = sign({ key: gone, contentType: 'image/png', filename: 'a.png' })
    expect((await t.inject({ method: 'GET', url })).body).toBe('png bytes')
    await fileStore.delete(gone)
    const res = await t.inject({ method: 'GET', url })
    expect(res.statusCode).toBe(410)
    expect(res.json()).toMatchObject({ code: 'file_expired' })
    expect((await t.inject({ method: 'HEAD', url })).statusCode).toBe(410)
  })
})

describe('signed file URLs across restarts', () => {
  it('stay valid in embedded mode without DOCSVC_SECRET_KEY: the generated key is kept in the data dir', async () => {
    const first = await startTestKernel()
    const env = { DOCSVC_DATA_DIR: first.dataDir }
    const { fileStore, fileUrlSigner } = first.kernel.container.cradle
    await fileStore.put('ws_a/rnd_b/file_c.txt', Buffer.from('kept'), 'text/plain')
    const url = fileUrlSigner.url({
      key: 'ws_a/rnd_b/file_c.txt',
      contentType: 'text/plain; charset=utf-8',
      filename: 'c.txt',
      disposition: 'inline',
      expiresAt: new Date(Date.now() + 60_000),
    })
    await first.kernel.close()
    // a second process on the same data dir (the first one's close() would delete it)
    const second = await startTestKernel({ env })
    try {
      const res = await second.inject({ method: 'GET', url: new URL(url).pathname })
      expect(res.statusCode).toBe(200)
      expect(res.body).toBe('kept')
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    } finally {
      await second.close()
      await first.close()
    }
  })

  it('stops a cluster-mode boot without DOCSVC_SECRET_KEY, naming it', async () => {
    await expect(startTestKernel({ dialect: 'postgres', env: { DOCSVC_SECRET_KEY: '' } })).rejects.toThrow(
      /DOCSVC_SECRET_KEY: required in cluster mode/,
    )
  })
})
