import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  closedPort,
  startTestKernel,
  TEST_DIALECTS,
  type TestKernel,
  type TestWorkspace,
} from '../testing/index.ts'
import { MAX_DESTINATIONS_PER_WORKSPACE } from './storage-destination-service.ts'

const SECRET = 'wJalrXUtnFEMI-K7MDENG-very-secret'
const CREDENTIALS = { access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: SECRET }
const OBJECT_STORE = {
  name: 'Invoices archive',
  provider: 'object_store',
  config: { bucket: 'acme-invoices', region: 'eu-central-1', storage_class: 'STANDARD_IA' },
  credentials: CREDENTIALS,
}

function problemOf(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
  code: string,
) {
  const body = res.json() as Record<string, unknown>
  expect({ status: res.statusCode, code: body.code }).toEqual({ status, code })
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  return body as { errors?: { path: string; code: string; message: string }[]; detail?: string }
}

describe.each(TEST_DIALECTS)('storage destinations API (SPEC 2.8, 4.7) on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    // the operator allows loopback, as other outbound tests do; 10.0.0.0/8 stays refused
    t = await startTestKernel({ dialect, env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32' } })
    ws = await t.createWorkspace()
    await t.setPlanLimits('scale', { requests_per_second: 10_000 })
  })
  afterAll(() => t?.close())

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    key = ws.liveKey,
  ) => t.inject({ method, url, key, ...(payload ? { payload } : {}) })
  const create = (body: object, key = ws.liveKey) => call('POST', '/v1/storage-destinations', body, key)

  it('creates a destination (201); reads show credentials only as configured: true', async () => {
    const res = await create({ ...OBJECT_STORE, keep_hosted_copy: false })
    expect(res.statusCode).toBe(201)
    const created = res.json()
    expect(created).toMatchObject({
      object: 'storage_destination',
      name: 'Invoices archive',
      provider: 'object_store',
      config: OBJECT_STORE.config,
      credentials: { configured: true },
      is_default: false,
      keep_hosted_copy: false,
      path_template: '{{ render.id }}/{{ file.name }}.{{ file.ext }}',
      last_test: null,
    })
    expect(created.id).toMatch(/^dst_[0-9a-z]{26}$/)
    expect(res.body).not.toContain(SECRET)
    expect(res.body).not.toContain(CREDENTIALS.access_key_id)

    const one = await call('GET', `/v1/storage-destinations/${created.id}`)
    expect(one.statusCode).toBe(200)
    expect(one.json()).toEqual(created)
    const list = await call('GET', '/v1/storage-destinations', undefined, ws.testKey)
    expect(list.json()).toMatchObject({ object: 'list', has_more: false })
    expect(list.json().data.map((d: { id: string }) => d.id)).toContain(created.id)
    expect(list.body).not.toContain(SECRET)

    // at rest: sealed with the installation key, neither value readable in the row
    const row = await t.kernel.container.cradle.db.kysely
      .selectFrom('storage_destinations')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow()
    expect(row.credentials).toMatch(/^v1\./)
    expect(row.credentials).not.toContain(SECRET)
    expect(row.credentials).not.toContain(CREDENTIALS.access_key_id)
    expect(t.kernel.container.cradle.storageCredentialBox.openCredentials(row.credentials)).toEqual(
      CREDENTIALS,
    )
  })

  it('refuses an unknown provider, listing the installed kinds', async () => {
    const body = problemOf(await create({ ...OBJECT_STORE, provider: 'floppy' }), 400, 'validation_error')
    expect(body.errors).toEqual([
      {
        path: '/provider',
        code: 'unknown_provider',
        message: expect.stringMatching(
          /"floppy" is not an installed storage provider; installed: .*object_store, object_store_compatible/,
        ),
      },
    ])
  })

  it('lists every problem of config, credentials and path template with its JSON pointer', async () => {
    const body = problemOf(
      await create({
        name: 'Broken',
        provider: 'object_store',
        config: { region: 'eu-central-1', storage_class: 'DEEP_ARCHIVE', prefix: 'x' },
        credentials: { access_key_id: 'AKIA', token: 'token-value-never-shown' },
        path_template: '../{{ render.secret }}',
      }),
      400,
      'validation_error',
    )
    const paths = body.errors!.map((e) => `${e.path} ${e.code}`)
    expect(paths).toEqual(
      expect.arrayContaining([
        '/config/bucket required',
        '/config/storage_class enum',
        '/config/prefix unknown_field',
        '/credentials/secret_access_key required',
        '/credentials/token unknown_field',
        '/path_template unsafe_path',
        '/path_template unknown_placeholder',
      ]),
    )
    expect(body.errors!.find((e) => e.path === '/config/storage_class')!.message).toMatch(/STANDARD_IA/)
    expect(JSON.stringify(body)).not.toContain('token-value-never-shown')
  })

  it('refuses any storage class on the compatible provider (400 at /config/storage_class)', async () => {
    const body = problemOf(
      await create({
        ...OBJECT_STORE,
        provider: 'object_store_compatible',
        config: { bucket: 'b-1', endpoint: 'https://s3.example.com', storage_class: 'STANDARD' },
      }),
      400,
      'validation_error',
    )
    expect(body.errors).toEqual([
      {
        path: '/config/storage_class',
        code: 'unknown_field',
        message: 'is not a setting of provider object_store_compatible',
      },
    ])
  })

  it('keeps provider immutable and replaces config and credentials only when sent', async () => {
    const id = (await create(OBJECT_STORE)).json().id
    const moved = problemOf(
      await call('PATCH', `/v1/storage-destinations/${id}`, { provider: 'object_store_compatible' }),
      400,
      'validation_error',
    )
    expect(moved.errors).toEqual([
      { path: '/provider', code: 'immutable', message: expect.stringMatching(/object_store/) },
    ])
    const renamed = await call('PATCH', `/v1/storage-destinations/${id}`, {
      provider: 'object_store',
      name: 'Renamed',
      config: { bucket: 'other-bucket', region: 'eu-west-1' },
      path_template: 'docs/{{ date.year }}/{{ render.reference }}-{{ file.index }}.{{ file.ext }}',
    })
    expect(renamed.statusCode).toBe(200)
    expect(renamed.json()).toMatchObject({
      name: 'Renamed',
      provider: 'object_store',
      config: { bucket: 'other-bucket', region: 'eu-west-1' },
      path_template: 'docs/{{ date.year }}/{{ render.reference }}-{{ file.index }}.{{ file.ext }}',
      credentials: { configured: true },
    })
    const badCredentials = problemOf(
      await call('PATCH', `/v1/storage-destinations/${id}`, { credentials: { access_key_id: 7 } }),
      400,
      'validation_error',
    )
    expect(badCredentials.errors!.map((e) => e.path).sort()).toEqual([
      '/credentials/access_key_id',
      '/credentials/secret_access_key',
    ])
    const escaping = problemOf(
      await call('PATCH', `/v1/storage-destinations/${id}`, { path_template: '/etc/{{ file.name }}' }),
      400,
      'validation_error',
    )
    expect(escaping.errors).toEqual([
      { path: '/path_template', code: 'unsafe_path', message: expect.any(String) },
    ])
  })

  it('keeps one default per workspace: a new default clears the previous one', async () => {
    const first = (await create({ ...OBJECT_STORE, is_default: true })).json().id
    const second = (await create({ ...OBJECT_STORE, is_default: true })).json().id
    const defaults = async () =>
      (await call('GET', '/v1/storage-destinations'))
        .json()
        .data.filter((d: { is_default: boolean }) => d.is_default)
    expect((await defaults()).map((d: { id: string }) => d.id)).toEqual([second])
    await call('PATCH', `/v1/storage-destinations/${first}`, { is_default: true })
    expect((await defaults()).map((d: { id: string }) => d.id)).toEqual([first])
  })

  it('deletes (204), then 404; another workspace never sees it', async () => {
    const id = (await create(OBJECT_STORE)).json().id
    const other = await t.createWorkspace({ name: 'Other' })
    problemOf(await call('GET', `/v1/storage-destinations/${id}`, undefined, other.liveKey), 404, 'not_found')
    problemOf(
      await call('DELETE', `/v1/storage-destinations/${id}`, undefined, other.liveKey),
      404,
      'not_found',
    )
    expect((await call('DELETE', `/v1/storage-destinations/${id}`)).statusCode).toBe(204)
    problemOf(await call('GET', `/v1/storage-destinations/${id}`), 404, 'not_found')
    problemOf(await call('POST', `/v1/storage-destinations/${id}/test`), 404, 'not_found')
  })

  it('tests a destination: steps with stable codes, stored as last_test', async () => {
    const port = await closedPort()
    const id = (
      await create({
        ...OBJECT_STORE,
        provider: 'object_store_compatible',
        config: { bucket: 'acme', endpoint: `http://127.0.0.1:${port}` },
      })
    ).json().id
    const res = await call('POST', `/v1/storage-destinations/${id}/test`)
    expect(res.statusCode).toBe(200)
    const result = res.json()
    expect(result).toMatchObject({
      ok: false,
      steps: [
        {
          name: 'write',
          ok: false,
          code: 'connection_refused',
          message: expect.stringMatching(/refused the connection/),
        },
        { name: 'read', ok: false, skipped: true },
        { name: 'delete', ok: false, skipped: true },
      ],
    })
    expect(Date.parse(result.tested_at)).not.toBeNaN()
    expect((await call('GET', `/v1/storage-destinations/${id}`)).json().last_test).toEqual(result)
    // new settings: the old result no longer says anything
    const patched = await call('PATCH', `/v1/storage-destinations/${id}`, {
      config: { bucket: 'acme', endpoint: 'http://10.20.30.40:9000' },
    })
    expect(patched.json().last_test).toBeNull()
    // a private address the operator did not allow is refused before connecting
    const refused = (await call('POST', `/v1/storage-destinations/${id}/test`)).json()
    expect(refused.steps[0]).toMatchObject({ ok: false, code: 'address_not_allowed' })
  })

  it('answers 402 plan_feature_unavailable below the plan; reads and deletes still work', async () => {
    const free = await t.createWorkspace({ name: 'Free', plan: 'free' })
    const body = problemOf(await create(OBJECT_STORE, free.liveKey), 402, 'plan_feature_unavailable')
    expect(body).toMatchObject({ feature: 'storage_destinations', required_plan: 'starter' })
    expect((await call('GET', '/v1/storage-destinations', undefined, free.liveKey)).statusCode).toBe(200)
  })

  it('needs storage:write to change and storage:read to read', async () => {
    const reader = await t.createKey({ workspaceId: ws.workspace.id, mode: 'live', scopes: ['storage:read'] })
    expect((await call('GET', '/v1/storage-destinations', undefined, reader.key)).statusCode).toBe(200)
    problemOf(await create(OBJECT_STORE, reader.key), 403, 'insufficient_scope')
    const renderer = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'live',
      scopes: ['render:write'],
    })
    problemOf(
      await call('GET', '/v1/storage-destinations', undefined, renderer.key),
      403,
      'insufficient_scope',
    )
  })

  it(`refuses more than ${MAX_DESTINATIONS_PER_WORKSPACE} destinations per workspace`, async () => {
    const busy = await t.createWorkspace({ name: 'Busy' })
    for (let i = 0; i < MAX_DESTINATIONS_PER_WORKSPACE; i++)
      expect((await create(OBJECT_STORE, busy.liveKey)).statusCode).toBe(201)
    const body = problemOf(await create(OBJECT_STORE, busy.liveKey), 400, 'validation_error')
    expect(body.errors).toEqual([
      { path: '', code: 'limit_reached', message: expect.stringMatching(/at most 25/) },
    ])
  })
})
