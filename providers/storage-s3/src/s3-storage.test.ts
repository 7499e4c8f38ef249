import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import S3rver from '@20minutes/s3rver'
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { runStorageContract, testOutboundGuard, closedPort as unusedPort } from '@docsvc/core/testing'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mustUsePathStyle, s3Addressing } from './s3-addressing.ts'
import { CompatibleConfigSchema, ObjectStoreConfigSchema } from './s3-storage-config.ts'
import { MULTIPART_THRESHOLD, type S3StorageProvider } from './s3-storage-provider.ts'
import { s3StorageFactory } from './storage-s3-plugin.ts'

// s3rver checks SigV4 signatures against this key pair
const CREDENTIALS = { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' }
const BUCKET = 'docsvc-destination'
const quiet = { info() {}, warn() {}, error() {}, debug() {} }
// the operator allows the loopback S3 server, as DOCSVC_NETWORK_ALLOW does in a deployment
const guard = testOutboundGuard(['127.0.0.1/32'])

let server: S3rver
let dir: string
let endpoint: string
let closedPort: number

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'docsvc-s3rver-dst-'))
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET }],
  })
  endpoint = `http://127.0.0.1:${(await server.run()).port}`
  closedPort = await unusedPort()
})

/** Forwards to the S3 server and notes each request's method and path, to see how files went up. */
async function recordingProxy(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = []
  const target = new URL(endpoint)
  const proxy = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const { port } = proxy.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => proxy.close(() => resolve())),
  }
}

afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

const owner = () =>
  new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  })

const compatible = s3StorageFactory('object_store_compatible', guard)
const settings = (
  config: Record<string, unknown> = {},
  credentials: Record<string, unknown> = CREDENTIALS,
) => ({
  config: { bucket: BUCKET, endpoint, ...config },
  credentials,
})
const made: S3StorageProvider[] = []
const provider = (s = settings()) => {
  const p = compatible.create(s as never, { log: quiet }) as S3StorageProvider
  made.push(p)
  return p
}
afterAll(() => Promise.all(made.map((p) => p.close())))

runStorageContract('object_store_compatible on s3rver', async () => ({
  factory: compatible,
  settings: settings(),
  permanentFault: settings({ bucket: 'no-such-bucket' }),
  transientFault: settings({ endpoint: `http://127.0.0.1:${closedPort}` }),
  async readBack(_stored, key) {
    const client = owner()
    try {
      const out = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
      return {
        bytes: Buffer.from(await out.Body!.transformToByteArray()),
        ...(out.ContentType ? { contentType: out.ContentType } : {}),
      }
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchKey') return undefined
      throw err
    } finally {
      client.destroy()
    }
  },
  async close() {},
}))

describe('object_store and object_store_compatible (SPEC 2.8)', () => {
  const options = () => ({ signal: AbortSignal.timeout(60_000) })

  it('probes write, read, delete and leaves nothing behind', async () => {
    const report = await provider().probe(options())
    expect(report).toMatchObject({
      ok: true,
      steps: [
        { name: 'write', ok: true },
        { name: 'read', ok: true },
        { name: 'delete', ok: true },
      ],
    })
    const key = /wrote (\S+)/.exec(report.steps[0]!.detail!)![1]!
    const client = owner()
    await expect(client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))).rejects.toMatchObject({
      name: 'NotFound',
    })
    client.destroy()
  })

  it.each([
    [
      'a missing bucket',
      () => settings({ bucket: 'no-such-bucket' }),
      'bucket_not_found',
      /no-such-bucket does not exist/,
    ],
    [
      'wrong credentials',
      () => settings({}, { access_key_id: 'WRONG-KEY', secret_access_key: 'wrong-secret-value' }),
      'access_denied',
      /refused the credentials .*check access_key_id and secret_access_key/,
    ],
    [
      'a closed port',
      () => settings({ endpoint: `http://127.0.0.1:${closedPort}` }),
      'connection_refused',
      /refused the connection/,
    ],
    [
      'a name that does not resolve',
      () => settings({ endpoint: 'https://no-such-host.invalid' }),
      'dns_failure',
      /does not resolve/,
    ],
  ])(
    'fails the write step on %s with a stable code and an actionable message',
    async (_, make, code, message) => {
      const report = await provider(make()).probe(options())
      expect(report.ok).toBe(false)
      expect(report.steps[0]).toMatchObject({ name: 'write', ok: false, code })
      expect(report.steps[0]!.detail).toMatch(message)
      expect(report.steps[0]!.detail).not.toContain('wrong-secret-value')
      expect(report.steps.slice(1)).toEqual([
        { name: 'read', ok: false, skipped: true },
        { name: 'delete', ok: false, skipped: true },
      ])
    },
  )

  it('tells a TLS failure (https to a plain-HTTP server) and a server that never answers', async () => {
    const tls = await provider(settings({ endpoint: endpoint.replace('http:', 'https:') })).probe(options())
    expect(tls.steps[0]).toMatchObject({
      ok: false,
      code: 'tls_error',
      detail: expect.stringMatching(/TLS connection/),
    })

    const silent = createNetServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    try {
      const port = (silent.address() as { port: number }).port
      const slow = await provider(settings({ endpoint: `http://127.0.0.1:${port}` })).probe({
        signal: AbortSignal.timeout(300),
      })
      expect(slow.steps[0]).toMatchObject({
        ok: false,
        code: 'timeout',
        detail: expect.stringMatching(/did not answer in time/),
      })
    } finally {
      silent.close()
    }
  })

  it('connects only where the outbound guard allows: loopback is refused without the operator', async () => {
    const strict = s3StorageFactory('object_store_compatible', testOutboundGuard([]))
    const p = strict.create(settings() as never, { log: quiet }) as S3StorageProvider
    made.push(p)
    const report = await p.probe(options())
    expect(report.steps[0]).toMatchObject({ ok: false, code: 'address_not_allowed' })
  })

  it('uploads a file over 8 MiB in parts, byte for byte, with its content type', async () => {
    const size = MULTIPART_THRESHOLD + 3 * 1024 * 1024 + 17
    const bytes = Buffer.alloc(size)
    for (let i = 0; i < size; i += 4096) bytes[i] = (i / 4096) % 251
    const file = path.join(dir, '..', `docsvc-multipart-${process.pid}.bin`)
    writeFileSync(file, bytes)
    const proxy = await recordingProxy()
    try {
      for (const source of [{ bytes }, { path: file, size }]) {
        const key = `large/${'path' in source ? 'disk' : 'memory'}.pdf`
        proxy.seen.length = 0
        const stored = await provider(settings({ endpoint: proxy.url })).put(
          source,
          key,
          'application/pdf',
          options(),
        )
        expect(stored).toMatchObject({ size, location: `s3://${BUCKET}/${key}` })
        // started, two parts of at most 8 MiB, completed: never one PUT of the whole file
        expect(
          proxy.seen.map((r) => r.replace(/uploadId=[^&]+/, 'uploadId=U').replace(/&x-id=[A-Za-z]+/, '')),
        ).toEqual([
          `POST /${BUCKET}/${key}?uploads=`,
          `PUT /${BUCKET}/${key}?partNumber=1&uploadId=U`,
          `PUT /${BUCKET}/${key}?partNumber=2&uploadId=U`,
          `POST /${BUCKET}/${key}?uploadId=U`,
        ])
        const client = owner()
        const out = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
        expect(out.ContentType).toBe('application/pdf')
        expect(Buffer.from(await out.Body!.transformToByteArray()).equals(bytes)).toBe(true)
        client.destroy()
      }
    } finally {
      await proxy.close()
      rmSync(file, { force: true })
    }
  })

  it('writes in the configured storage class', async () => {
    const objectStore = s3StorageFactory('object_store', guard)
    const p = objectStore.create(
      {
        config: { bucket: BUCKET, region: 'us-east-1', endpoint, storage_class: 'STANDARD_IA' },
        credentials: CREDENTIALS,
      } as never,
      { log: quiet },
    ) as S3StorageProvider
    made.push(p)
    await p.put({ bytes: Buffer.from('x') }, 'classes/ia.txt', 'text/plain', options())
    const client = owner()
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'classes/ia.txt' }))
    expect(head.StorageClass).toBe('STANDARD_IA')
    client.destroy()
  })

  it('takes the storage classes SPEC allows on object_store only, and no deep archive', () => {
    const base = { bucket: 'acme-invoices', region: 'eu-central-1' }
    for (const cls of ['STANDARD', 'STANDARD_IA', 'ONEZONE_IA', 'INTELLIGENT_TIERING', 'GLACIER_IR'])
      expect(Value.Check(ObjectStoreConfigSchema, { ...base, storage_class: cls })).toBe(true)
    for (const cls of ['DEEP_ARCHIVE', 'GLACIER', 'standard'])
      expect(Value.Check(ObjectStoreConfigSchema, { ...base, storage_class: cls })).toBe(false)
    expect(
      Value.Check(CompatibleConfigSchema, {
        bucket: 'b-1',
        endpoint: 'https://s3.example.com',
        storage_class: 'STANDARD',
      }),
    ).toBe(false)
  })

  it('defaults force_path_style to false on object_store and true on the compatible kind', () => {
    expect(s3Addressing('object_store', { bucket: 'acme', region: 'eu-west-1' }).forcePathStyle).toBe(false)
    expect(
      s3Addressing('object_store_compatible', { bucket: 'acme', endpoint: 'https://s3.example.com' })
        .forcePathStyle,
    ).toBe(true)
    expect(
      s3Addressing('object_store_compatible', {
        bucket: 'acme',
        endpoint: 'https://s3.example.com',
        force_path_style: false,
      }).forcePathStyle,
    ).toBe(false)
  })

  it.each([
    ['acme.invoices', undefined],
    ['acme_invoices', undefined],
    ['AcmeInvoices', undefined],
    ['acme', 'https://192.0.2.10:9000'],
    ['acme', 'http://[2001:db8::1]:9000'],
  ])('always uses path style for bucket %s at %s', (bucket, at) => {
    expect(mustUsePathStyle(bucket, at)).toBe(true)
    const config = { bucket, region: 'eu-west-1', force_path_style: false, ...(at ? { endpoint: at } : {}) }
    expect(s3Addressing('object_store', config).forcePathStyle).toBe(true)
  })

  it('uses the host name for a plain bucket at a named endpoint', () => {
    expect(mustUsePathStyle('acme-invoices', 'https://s3.example.com')).toBe(false)
  })
})
