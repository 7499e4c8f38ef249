import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import S3rver from '@20minutes/s3rver'
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3'
import {
  readStream,
  runFileStoreContract,
  startTestKernel,
  TEST_DIALECTS,
  type TestKernel,
} from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { filestoreS3Plugin, s3FileStoreFactory } from './filestore-s3-plugin.ts'
import { createS3FileStore, type S3FileStore, type S3FileStoreOptions } from './s3-file-store.ts'
import { S3FileStoreConfigSchema } from './s3-file-store-config.ts'

// s3rver checks SigV4 signatures against this key pair
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
const BUCKET = 'docsvc-files'

let server: S3rver
let dir: string
let endpoint: string
const stores: S3FileStore[] = []

function store(over: Partial<S3FileStoreOptions> = {}): S3FileStore {
  const s = createS3FileStore({ endpoint, bucket: BUCKET, forcePathStyle: true, ...CREDENTIALS, ...over })
  stores.push(s)
  return s
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'docsvc-s3rver-'))
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET }],
  })
  const address = await server.run()
  endpoint = `http://127.0.0.1:${address.port}`
})

afterAll(async () => {
  for (const s of stores) s.destroy()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('S3FileStore against a local S3 server', () => {
  let shared: S3FileStore
  beforeAll(() => {
    shared = store()
  })
  runFileStoreContract('S3FileStore', () => shared)

  const head = (key: string) =>
    new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS }).send(
      new HeadObjectCommand({ Bucket: BUCKET, Key: key }),
    )

  it('stores the content type with the object', async () => {
    await shared.put('ws_a/rnd_b/file_c.pdf', Buffer.from('%PDF-1.7'), 'application/pdf')
    await shared.put('ws_a/rnd_b/file_d.html', Buffer.from('<p>x</p>'), 'text/html; charset=utf-8')
    expect((await head('ws_a/rnd_b/file_c.pdf')).ContentType).toBe('application/pdf')
    const html = await head('ws_a/rnd_b/file_d.html')
    expect(html.ContentType).toBe('text/html; charset=utf-8')
    expect(html.ContentLength).toBe(8)
  })

  it('keeps its objects under the prefix when one is set', async () => {
    const prefixed = store({ prefix: 'docsvc/hosted/' })
    await prefixed.put('ws_a/rnd_p/file_p.png', Buffer.from('png'), 'image/png')
    expect((await head('docsvc/hosted/ws_a/rnd_p/file_p.png')).ContentType).toBe('image/png')
    expect(await shared.get('ws_a/rnd_p/file_p.png')).toBeUndefined()
    expect((await readStream((await prefixed.get('ws_a/rnd_p/file_p.png'))!.stream)).toString()).toBe('png')
  })

  it('fails loudly with a wrong secret instead of losing the file', async () => {
    const wrong = store({ secretAccessKey: 'not-the-secret' })
    await expect(wrong.put('ws_a/rnd_b/file_x.pdf', Buffer.from('x'), 'application/pdf')).rejects.toThrow(
      /signature/i,
    )
  })

  it('fails loudly for a bucket that does not exist', async () => {
    const missing = store({ bucket: 'no-such-bucket' })
    await expect(missing.put('ws_a/rnd_b/file_x.pdf', Buffer.from('x'), 'application/pdf')).rejects.toThrow(
      /bucket/i,
    )
  })
})

describe.each(TEST_DIALECTS)('GET /files/:token served from S3 on %s', (dialect) => {
  let t: TestKernel
  beforeAll(async () => {
    t = await startTestKernel({ dialect, env: { DOCSVC_SECRET_KEY: 'z'.repeat(40) } })
    // what the kernel does once the plugin is listed: the configured factory's store is the fileStore
    const s3 = store()
    // an awilix value resolver, written out: awilix is core's dependency, not this package's
    t.kernel.container.register({ fileStore: { resolve: () => s3, isLeakSafe: true } })
  })
  afterAll(() => t?.close())

  it('streams the object with the signed headers, and 410 once it is deleted', async () => {
    const { fileStore, fileUrlSigner } = t.kernel.container.cradle
    const key = `ws_s3/rnd_${dialect}/file_1.pdf`
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300_000, 7)])
    await fileStore.put(key, bytes, 'application/pdf')
    const url = fileUrlSigner.url({
      key,
      contentType: 'application/pdf',
      filename: 'report.pdf',
      disposition: 'attachment',
      expiresAt: new Date(Date.now() + 60_000),
    })
    const res = await t.inject({ method: 'GET', url: new URL(url).pathname })
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.equals(bytes)).toBe(true)
    expect(res.headers['content-length']).toBe(String(bytes.length))
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="report\.pdf"/)
    await fileStore.delete(key)
    const gone = await t.inject({ method: 'GET', url: new URL(url).pathname })
    expect(gone.statusCode).toBe(410)
    expect(gone.json()).toMatchObject({ code: 'file_expired' })
  })
})

describe('the filestore-s3 plugin', () => {
  const config = { ...defaults(), bucket: BUCKET }

  it('registers an s3 factory that counts as configured only with a bucket', () => {
    const added: [string, unknown][] = []
    const registries = { fileStores: { add: (key: string, value: unknown) => added.push([key, value]) } }
    filestoreS3Plugin.register({ registries, config } as never)
    expect(added.map(([key]) => key)).toEqual(['s3'])
    expect(s3FileStoreFactory(config).configured).toBe(true)
    expect(s3FileStoreFactory({ ...config, bucket: '' }).configured).toBe(false)
  })

  it('refuses an access key id without its secret', () => {
    expect(() => s3FileStoreFactory({ ...config, accessKeyId: 'AKIA' })).toThrow(
      /DOCSVC_PLUGIN_FILESTORE_S3_SECRET_ACCESS_KEY/,
    )
  })

  it('makes a working store from its config', async () => {
    const factory = s3FileStoreFactory({ ...config, endpoint, forcePathStyle: true, ...CREDENTIALS })
    const made = factory.create() as S3FileStore
    stores.push(made)
    await made.put('ws_f/rnd_f/file_f.txt', Buffer.from('from config'), 'text/plain')
    expect((await readStream((await made.get('ws_f/rnd_f/file_f.txt'))!.stream)).toString()).toBe(
      'from config',
    )
  })
})

function defaults() {
  const props = S3FileStoreConfigSchema.properties
  return Object.fromEntries(
    Object.entries(props).map(([k, v]) => [k, (v as unknown as { default: unknown }).default]),
  ) as {
    bucket: string
    endpoint: string
    region: string
    accessKeyId: string
    secretAccessKey: string
    forcePathStyle: boolean
    prefix: string
  }
}
