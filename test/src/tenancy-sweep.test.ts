import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_OUTPUT_BUILTINS } from '../../core/src/renders/fake-render-plugins.fixture.ts'
import {
  startTestKernel,
  TEST_DIALECTS,
  type TestKernel,
  type TestWorkspace,
} from '../../core/src/testing/index.ts'
import { fillPath, type OpenApiDocument, operationsOf, pathParams } from './openapi-document.ts'
import { problemViolations } from './problem-check.ts'
import { type ApiCall, createResources, type ResourceIds, socketCall } from './resource-fixtures.ts'
import { minimalValue, type Schema } from './schema-arbitraries.ts'
import { fetchWire, type WireResponse } from './wire-client.ts'

// Issue 13's tenancy sweep: every operation of the OpenAPI document that addresses a resource
// by id, sent with another workspace's key (test and live) and with the owner's other-mode key
// where the resource belongs to a mode, answers 404 problem+json; the owner still sees the
// resource unchanged afterwards. The list comes from the document, so a new `{id}` route is swept
// as soon as it is served (and fails here until resource-fixtures.ts makes one).

/** Path parameters that are not a tenant's id, and why they are left out. */
const NOT_TENANT_IDS: Record<string, string> = {
  token: '/files/{token} is a signed URL: the token is the credential and no key is read',
}

/**
 * Resources that belong to a mode (test keys see only test objects): renders and their files
 * (SPEC 2.2, 5 "Test mode"), webhook endpoints and their deliveries (decision 0007), uploads
 * (decision 0010). Templates, their versions and datasets belong to the workspace (decision 0011).
 */
const MODE_SCOPED = new Set(['render_id', 'file_id', 'endpoint_id', 'delivery_id', 'upload_id'])

/** Fields that change between two reads by the owner without anyone writing (signed URLs). */
const VOLATILE = new Set(['url', 'expires_at'])
/** A delivery to the fixture endpoint fails and is retried by the worker while the sweep runs. */
const DELIVERY_PROGRESS = new Set([
  'status',
  'attempt',
  'attempts',
  'next_attempt_at',
  'response',
  'latency_ms',
  'updated_at',
  'delivered_at',
  'error',
  // the request of the latest attempt: each retry signs anew (webhook-timestamp, webhook-signature)
  'headers',
])

function normalised(value: unknown, path: string): unknown {
  if (Array.isArray(value)) return value.map((v) => normalised(v, path))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    if (VOLATILE.has(k)) continue
    if (path.includes('{delivery_id}') && DELIVERY_PROGRESS.has(k)) continue
    out[k] = normalised(v, path)
  }
  return out
}

interface Attempt {
  method: string
  path: string
  template: string
  body?: unknown
  params: string[]
}

describe.each(TEST_DIALECTS)('tenancy sweep on %s', (dialect) => {
  let t: TestKernel
  let owner: TestWorkspace
  let stranger: TestWorkspace
  let doc: OpenApiDocument
  let call: ApiCall
  let base: string
  const fixtures: { mode: 'test' | 'live'; key: string; ids: ResourceIds }[] = []

  beforeAll(async () => {
    t = await startTestKernel({
      dialect,
      builtins: FAKE_OUTPUT_BUILTINS,
      roles: ['api', 'worker'],
      // the fixture webhook endpoint points at a closed local port: deliveries fail at once
      env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32' },
    })
    owner = await t.createWorkspace({ plan: 'scale', name: 'Owner' })
    stranger = await t.createWorkspace({ plan: 'scale', name: 'Stranger' })
    await t.setPlanLimits('scale', { requests_per_second: 100_000, test_renders_per_minute: 100_000 })
    await t.kernel.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.kernel.app.server.address() as AddressInfo).port}`
    call = socketCall(base)
    doc = JSON.parse((await fetchWire(`${base}/v1/openapi.json`)).body) as OpenApiDocument
    for (const [mode, key, scheme] of [
      ['test', owner.testKey, 'http'],
      ['live', owner.liveKey, 'https'],
    ] as const) {
      const ids = await createResources(call, key, {
        webhookUrl: `${scheme}://127.0.0.1:1/hook`,
        withFiles: true,
      })
      fixtures.push({ mode, key, ids })
    }
  }, 60_000)
  afterAll(() => t?.close())

  /** Every operation whose path names a resource by id, filled with a fixture's ids. */
  function attempts(ids: ResourceIds): { ready: Attempt[]; missing: string[] } {
    const ready: Attempt[] = []
    const missing: string[] = []
    for (const [path, method, operation] of operationsOf(doc)) {
      const params = pathParams(path)
      if (params.length === 0 || params.some((p) => p in NOT_TENANT_IDS)) continue
      const lacking = params.filter((p) => ids[p] === undefined)
      if (lacking.length > 0) {
        missing.push(`${method.toUpperCase()} ${path}: no fixture for ${lacking.join(', ')}`)
        continue
      }
      const schema = operation.requestBody?.content['application/json']?.schema as Schema | undefined
      ready.push({
        method: method.toUpperCase(),
        path: fillPath(path, ids),
        template: path,
        params,
        ...(schema ? { body: minimalValue(schema) } : {}),
      })
    }
    return { ready, missing }
  }

  async function ownerReads(key: string, ids: ResourceIds): Promise<Map<string, WireResponse>> {
    const reads = new Map<string, WireResponse>()
    for (const a of attempts(ids).ready.filter((a) => a.method === 'GET'))
      reads.set(a.template, await call({ method: 'GET', path: a.path, key }))
    return reads
  }

  it('has a fixture for every id parameter of the OpenAPI document', () => {
    const params = new Set([...operationsOf(doc)].flatMap(([path]) => pathParams(path)))
    expect(params.size).toBeGreaterThan(5)
    for (const { ids } of fixtures) expect(attempts(ids).missing).toEqual([])
  })

  it("answers 404 to every read, change, delete and download by id with another workspace's or mode's key", async () => {
    const figures = { requests: 0, byStatus: new Map<number, number>(), byCode: new Map<string, number>() }
    const wrong: string[] = []
    for (const { mode, key, ids } of fixtures) {
      const before = await ownerReads(key, ids)
      for (const [name, res] of before)
        expect(res.status, `owner reads ${name} (${mode}): ${res.body.slice(0, 200)}`).toBeLessThan(400)
      const otherModeKey = mode === 'test' ? owner.liveKey : owner.testKey
      const intruders = [
        { who: 'other workspace, test key', key: stranger.testKey, otherMode: false },
        { who: 'other workspace, live key', key: stranger.liveKey, otherMode: false },
        {
          who: `same workspace, ${mode === 'test' ? 'live' : 'test'} key`,
          key: otherModeKey,
          otherMode: true,
        },
      ]
      for (const intruder of intruders) {
        for (const a of attempts(ids).ready) {
          // the owner's other mode only misses what belongs to a mode (templates are shared)
          if (intruder.otherMode && !a.params.some((p) => MODE_SCOPED.has(p))) continue
          const res = await call({
            method: a.method,
            path: a.path,
            key: intruder.key,
            ...(a.body !== undefined ? { body: a.body } : {}),
          })
          figures.requests++
          figures.byStatus.set(res.status, (figures.byStatus.get(res.status) ?? 0) + 1)
          const found = problemViolations(res, { status: 404 })
          if (found.length > 0)
            wrong.push(
              `${a.method} ${a.template} (${mode} fixture, ${intruder.who}): ${found.join('; ')} ${res.body.slice(0, 200)}`,
            )
          else {
            const code = (JSON.parse(res.body) as { code: string }).code
            figures.byCode.set(code, (figures.byCode.get(code) ?? 0) + 1)
          }
        }
      }
      const after = await ownerReads(key, ids)
      for (const [name, res] of after) {
        const was = before.get(name) as WireResponse
        expect(res.status, `owner still reads ${name} (${mode})`).toBe(was.status)
        if (res.headers['content-type']?.startsWith('application/json'))
          expect(normalised(JSON.parse(res.body), name), `${name} unchanged (${mode})`).toEqual(
            normalised(JSON.parse(was.body), name),
          )
      }
    }
    console.log(
      `[tenancy sweep ${dialect}] ${figures.requests} cross-tenant and cross-mode requests by id; statuses ${JSON.stringify(Object.fromEntries(figures.byStatus))}; codes ${JSON.stringify(Object.fromEntries(figures.byCode))}`,
    )
    expect(wrong).toEqual([])
    expect(figures.requests).toBeGreaterThan(50)
  })

  it("answers 404 to another workspace's or mode's ids inside request bodies (sources, templates)", async () => {
    const wrong: string[] = []
    let sent = 0
    for (const { mode, ids } of fixtures) {
      const bodies: [string, string, Record<string, unknown>, boolean][] = [
        [
          'upload as a PDF tool source',
          '/v1/pdf-tools/metadata',
          { source: { upload_id: ids.upload_id } },
          true,
        ],
        [
          'render file as a PDF tool source',
          '/v1/pdf-tools/metadata',
          { source: { render_id: ids.render_id, file_id: ids.file_id } },
          true,
        ],
        ['template of a render', '/v1/pdf/from-template', { template_id: ids.template_id }, false],
        ['template of an image', '/v1/images/from-template', { template_id: ids.template_id }, false],
      ]
      const otherMode = mode === 'test' ? owner.liveKey : owner.testKey
      for (const [what, path, body, scoped] of bodies) {
        for (const key of [stranger.testKey, stranger.liveKey, ...(scoped ? [otherMode] : [])]) {
          const res = await call({ method: 'POST', path, key, body: { ...body, mode: 'sync' } })
          sent++
          const found = problemViolations(res, { status: 404 })
          if (found.length > 0)
            wrong.push(`${what} (${mode} fixture): ${found.join('; ')} ${res.body.slice(0, 200)}`)
        }
      }
    }
    console.log(`[tenancy sweep ${dialect}] ${sent} requests naming another tenant's id in the body, all 404`)
    expect(wrong).toEqual([])
  })

  it("lists nothing when filtered by another workspace's or mode's id", async () => {
    const wrong: string[] = []
    const ownerSees: string[] = []
    let sent = 0
    for (const { mode, key: ownerKey, ids } of fixtures) {
      const otherModeKey = mode === 'test' ? owner.liveKey : owner.testKey
      for (const [path, method, operation] of operationsOf(doc)) {
        if (method !== 'get' || pathParams(path).length > 0) continue
        for (const p of (operation.parameters ?? []).filter((q) => q.in === 'query' && ids[q.name])) {
          // the filter works: where the owner's list shows the resource, the others' must not
          const mine = await call({ method: 'GET', path: `${path}?${p.name}=${ids[p.name]}`, key: ownerKey })
          if (((JSON.parse(mine.body) as { data?: unknown[] }).data?.length ?? 0) > 0)
            ownerSees.push(`${path}?${p.name}`)
          const keys = [
            stranger.testKey,
            stranger.liveKey,
            ...(MODE_SCOPED.has(p.name) ? [otherModeKey] : []),
          ]
          for (const key of keys) {
            const res = await call({ method: 'GET', path: `${path}?${p.name}=${ids[p.name]}`, key })
            sent++
            const items = res.status === 200 ? (JSON.parse(res.body) as { data?: unknown[] }).data : undefined
            if (res.status === 200 ? items?.length !== 0 : problemViolations(res, { status: 404 }).length > 0)
              wrong.push(`GET ${path}?${p.name}= (${mode} fixture): ${res.status} ${res.body.slice(0, 200)}`)
          }
        }
      }
    }
    console.log(
      `[tenancy sweep ${dialect}] ${sent} list requests filtered by another tenant's id, all empty (the owner sees items through ${[...new Set(ownerSees)].join(', ')})`,
    )
    expect(ownerSees.length).toBeGreaterThan(0)
    expect(wrong).toEqual([])
  })
})
