import type { AddressInfo } from 'node:net'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { FastifyPluginAsync } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DELIVERED_EVENT_TYPES } from '../../core/src/events/event-types.ts'
import { stdResponses } from '../../core/src/http/schemas/problem-schema.ts'
import { PROBLEM_CODES } from '../../core/src/kernel/problem-codes.ts'
import {
  startTestKernel,
  TEST_DIALECTS,
  type TestKernel,
  type TestWorkspace,
} from '../../core/src/testing/index.ts'
import { type OpenApiDocument, openApiPath, operationsOf } from './openapi-document.ts'
import { fetchWire } from './wire-client.ts'

// ajv-formats is CommonJS with a default export
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

interface WebhookOperation {
  description: string
  parameters: { name: string }[]
  requestBody: { content: Record<string, { schema: object; example: unknown }> }
}

/** Routes left out of the document on purpose, and where they may live. */
const HIDDEN_ALLOWED = [
  /^\/v1\/reference(\/|$)/,
  /^\/v1\/openapi\.json$/,
  // the documentation site's pages (guides, error pages, its stylesheet): HTML for people
  /^\/docs(\/|$)/,
  /^\/admin\/v1\//,
  // a page for the member's browser, not part of the API (docs/decisions/0090)
  /^\/verify-email\//,
]
const PROBLEM_REF = '#/components/schemas/Problem'

/** A documented route added through the test seam: its `:param` must come out as `{param}`. */
const inventoryProbe: FastifyPluginAsync = async (v1) => {
  v1.get(
    '/inventory-probe/:thing_id/parts/:part',
    {
      schema: {
        tags: ['test'],
        params: {
          type: 'object',
          required: ['thing_id', 'part'],
          properties: { thing_id: { type: 'string' }, part: { type: 'integer' } },
        },
        response: stdResponses(),
      },
    },
    async () => ({ ok: true }),
  )
}

describe.each(TEST_DIALECTS)('the OpenAPI document on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace
  let base: string
  let doc: OpenApiDocument

  beforeAll(async () => {
    t = await startTestKernel({ dialect, extraV1Routes: [inventoryProbe] })
    ws = await t.createWorkspace({ plan: 'growth' })
    await t.kernel.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.kernel.app.server.address() as AddressInfo).port}`
    const res = await fetchWire(`${base}/v1/openapi.json`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    doc = JSON.parse(res.body) as OpenApiDocument
  })
  afterAll(() => t?.close())

  it('is valid OpenAPI 3.1 to an independent validator', async () => {
    const validator = new Validator()
    const result = await validator.validate(doc as unknown as Record<string, unknown>)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it('documents every route the app serves, except the hidden ones, and nothing else', () => {
    const inventory = t.kernel.app.routeInventory
    // the inventory really sees the routes, prefixes included
    expect(inventory).toContainEqual({ method: 'GET', url: '/v1/account', hidden: false })
    expect(inventory).toContainEqual({ method: 'GET', url: '/v1/openapi.json', hidden: true })
    const gets = new Set(inventory.filter((r) => r.method === 'GET').map((r) => r.url))
    const served = inventory.filter((r) => !r.hidden && !(r.method === 'HEAD' && gets.has(r.url)))
    const missing = served
      .filter((r) => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.url}`)
    expect(missing).toEqual([])

    const hiddenElsewhere = inventory
      .filter((r) => r.hidden && !HIDDEN_ALLOWED.some((allowed) => allowed.test(r.url)))
      .map((r) => `${r.method} ${r.url}`)
    expect(hiddenElsewhere).toEqual([])

    const servedKeys = new Set(served.map((r) => `${r.method.toLowerCase()} ${openApiPath(r.url)}`))
    const documentedOnly = [...operationsOf(doc)]
      .map(([path, method]) => `${method} ${path}`)
      .filter((key) => !servedKeys.has(key))
    expect(documentedOnly).toEqual([])
  })

  it('writes path parameters the OpenAPI way', () => {
    const operation = doc.paths['/v1/inventory-probe/{thing_id}/parts/{part}']?.get
    expect(operation).toBeDefined()
    const inPath = (operation?.parameters ?? []).filter((p) => p.in === 'path')
    expect(inPath.map((p) => [p.name, p.required])).toEqual([
      ['thing_id', true],
      ['part', true],
    ])
  })

  it('documents every /v1 error response as problem+json with the Problem schema, STD set included', () => {
    const wrong: string[] = []
    for (const [path, method, operation] of operationsOf(doc)) {
      if (!path.startsWith('/v1/')) continue
      const statuses = Object.keys(operation.responses)
      for (const status of ['401', '403', '429']) {
        if (!statuses.includes(status)) wrong.push(`${method} ${path}: ${status} not documented`)
      }
      for (const status of statuses.filter((s) => Number(s) >= 400 || s === 'default')) {
        const content = operation.responses[status]?.content ?? {}
        const types = Object.keys(content)
        const ref = content['application/problem+json']?.schema?.$ref
        if (types.join() !== 'application/problem+json' || ref !== PROBLEM_REF)
          wrong.push(`${method} ${path} ${status}: ${JSON.stringify(content)}`)
      }
    }
    expect(wrong).toEqual([])
    expect(doc.components.schemas.Problem?.required).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'code', 'request_id']),
    )
  })

  it('names the codes each problem response carries: codes of its status in the one table', async () => {
    const wrong: string[] = []
    for (const [path, method, operation] of operationsOf(doc)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const schema = response.content?.['application/problem+json']?.schema
        if (!schema) continue
        const codes = (schema.properties as { code?: { enum?: string[] } } | undefined)?.code?.enum ?? []
        if (codes.length === 0) wrong.push(`${method} ${path} ${status}: no codes`)
        for (const code of codes) {
          const entry = PROBLEM_CODES[code as keyof typeof PROBLEM_CODES]
          if (entry?.[0] !== Number(status)) wrong.push(`${method} ${path} ${status}: ${code}`)
        }
        if (!codes.every((code) => response.description.includes(`\`${code}\``)))
          wrong.push(`${method} ${path} ${status}: description does not name its codes`)
      }
    }
    expect(wrong).toEqual([])
    // a route that names its codes narrows the list; the others get every code of the status
    const codesOf = (path: string, status: string) => {
      const schema = doc.paths[path]?.get?.responses[status]?.content?.['application/problem+json']?.schema
      return (schema?.properties as { code?: { enum?: string[] } } | undefined)?.code?.enum
    }
    expect(codesOf('/files/{token}', '404')).toEqual(['not_found'])
    expect(codesOf('/v1/account', '401')).toEqual([
      'authentication_required',
      'invalid_api_key',
      'api_key_expired',
      'api_key_revoked',
    ])
    // what a client really gets is among them
    const unkeyed = JSON.parse((await fetchWire(`${base}/v1/account`)).body) as { code: string }
    expect(codesOf('/v1/account', '401')).toContain(unkeyed.code)
  })

  it('documents every event the service sends as a webhook, its sample a valid payload', () => {
    const webhooks = (doc as unknown as { webhooks: Record<string, { post: WebhookOperation }> }).webhooks
    expect(Object.keys(webhooks).sort()).toEqual([...DELIVERED_EVENT_TYPES].sort())
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }))
    for (const [type, { post }] of Object.entries(webhooks)) {
      const body = post.requestBody.content['application/json'] as { schema: object; example: unknown }
      const valid = ajv.compile(body.schema)
      expect(valid(body.example), `${type}: ${JSON.stringify(valid.errors)}`).toBe(true)
      expect(valid({ ...(body.example as object), type: 'render.nope' }), type).toBe(false)
      expect(post.parameters.map((p) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
        'user-agent',
      ])
      expect(post.description.length).toBeGreaterThan(40)
    }
  })

  it('says what every response of every operation is', () => {
    const vague = [...operationsOf(doc)].flatMap(([path, method, operation]) =>
      Object.entries(operation.responses)
        .filter(([, response]) => !response.description || response.description === 'Default Response')
        .map(([status]) => `${method} ${path} ${status}`),
    )
    expect(vague).toEqual([])
  })

  it('cites no document a user does not have (the interface specification)', () => {
    expect(JSON.stringify(doc).match(/.{0,60}\bSPEC\b.{0,20}/g) ?? []).toEqual([])
  })

  it('says which operations need a key: all of /v1, none of the health probes', () => {
    expect(doc.security).toEqual(expect.arrayContaining([{ bearer: [] }, { apiKey: [] }]))
    for (const [path, method, operation] of operationsOf(doc)) {
      if (path.startsWith('/v1/')) expect(operation.security, `${method} ${path}`).not.toEqual([])
      else expect(operation.security, `${method} ${path}`).toEqual([])
    }
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz']))
  })

  it('describes what the service really sends: a 401 problem and a 200 account', async () => {
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }))
    for (const [name, schema] of Object.entries(doc.components.schemas))
      ajv.addSchema(schema, `#/components/schemas/${name}`)
    const problem = ajv.compile(doc.components.schemas.Problem as object)
    const unkeyed = await fetchWire(`${base}/v1/account`)
    expect(unkeyed.status).toBe(401)
    expect(problem(JSON.parse(unkeyed.body)), JSON.stringify(problem.errors)).toBe(true)
    const notHttp = await fetchWire(`${base}/docs/errors/%E0%A4%A`)
    expect(problem(JSON.parse(notHttp.body)), JSON.stringify(problem.errors)).toBe(true)

    const documented = doc.paths['/v1/account']?.get?.responses['200']?.content?.['application/json']?.schema
    const account = ajv.compile(documented as object)
    const res = await fetchWire(`${base}/v1/account`, { headers: { authorization: `Bearer ${ws.testKey}` } })
    expect(res.status).toBe(200)
    expect(account(JSON.parse(res.body)), JSON.stringify(account.errors)).toBe(true)
  })

  it('serves the reference at /v1/reference as HTML whose assets load, without a key', async () => {
    const page = await fetchWire(`${base}/v1/reference`)
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.body).toMatch(/<html/i)
    const assets = [...page.body.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1] as string)
    expect(assets.length).toBeGreaterThan(0)
    for (const asset of assets) {
      const res = await fetchWire(new URL(asset, `${base}/v1/reference/`).href)
      expect(res.status, asset).toBe(200)
    }
    const json = await fetchWire(`${base}/v1/reference/json`)
    expect(JSON.parse(json.body)).toEqual(doc)
  })

  it('resolves every problem type URI on the installation', async () => {
    const unkeyed = await fetchWire(`${base}/v1/account`)
    const { type } = JSON.parse(unkeyed.body) as { type: string }
    for (const code of ['authentication_required', ...Object.keys(PROBLEM_CODES)]) {
      const path = new URL(type.replace(/authentication_required$/, code)).pathname
      const res = await fetchWire(`${base}${path}`)
      expect(res.status, path).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/html/)
      expect(res.body).toContain(code)
    }
  })
})
