import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import S3rver from '@20minutes/s3rver'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// POST /v1/storage-destinations/{id}/test over HTTP against a real S3 server: the probe's
// success and its failure steps as a user reads them, stored as last_test.

const BUCKET = 'docsvc-api-probe'
let server: S3rver
let dir: string
let endpoint: string

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'docsvc-s3rver-api-'))
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET }],
  })
  endpoint = `http://127.0.0.1:${(await server.run()).port}`
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe.each(TEST_DIALECTS)('storage destination test probe over HTTP on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace
  beforeAll(async () => {
    // the operator allows the loopback S3 server, as DOCSVC_NETWORK_ALLOW does in a deployment
    t = await startTestKernel({ dialect, env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32' } })
    ws = await t.createWorkspace()
  })
  afterAll(() => t?.close())

  const destination = async (
    config: object,
    credentials = { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' },
  ) => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/storage-destinations',
      key: ws.liveKey,
      payload: {
        name: 'Archive',
        provider: 'object_store_compatible',
        config: { endpoint, ...config },
        credentials,
      },
    })
    expect(res.statusCode).toBe(201)
    return res.json().id as string
  }
  const probe = (id: string) =>
    t.inject({ method: 'POST', url: `/v1/storage-destinations/${id}/test`, key: ws.liveKey })

  it('writes, reads back and deletes a small object: ok, each step ok, kept as last_test', async () => {
    const id = await destination({ bucket: BUCKET })
    const res = await probe(id)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      ok: true,
      steps: [
        { name: 'write', ok: true, message: expect.stringMatching(/^wrote docsvc-test-[0-9a-f]{16}\.txt/) },
        { name: 'read', ok: true },
        { name: 'delete', ok: true },
      ],
    })
    const read = await t.inject({ method: 'GET', url: `/v1/storage-destinations/${id}`, key: ws.liveKey })
    expect(read.json().last_test).toEqual(res.json())
  })

  it('says which step failed and why: a missing bucket, refused credentials', async () => {
    const missing = (await probe(await destination({ bucket: 'no-such-bucket' }))).json()
    expect(missing.ok).toBe(false)
    expect(missing.steps[0]).toMatchObject({ name: 'write', ok: false, code: 'bucket_not_found' })
    const refused = (
      await probe(
        await destination({ bucket: BUCKET }, { access_key_id: 'NOPE', secret_access_key: 'not-the-secret' }),
      )
    ).json()
    expect(refused.steps[0]).toMatchObject({ name: 'write', ok: false, code: 'access_denied' })
    expect(JSON.stringify(refused)).not.toContain('not-the-secret')
  })
})
