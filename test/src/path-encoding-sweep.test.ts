import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'
import { type OpenApiDocument, operationsOf } from './openapi-document.ts'
import { pathVariants } from './path-variants.ts'
import { problemViolations } from './problem-check.ts'
import { inParallel, sendRequest, type WireResponse } from './wire-client.ts'

// Issue 13 item 1: the guard decided from the raw URL while the router matched the decoded one,
// so `/%761/account` reached /v1 handlers with no key. Every route of the OpenAPI document (and
// the operator API, which the document hides) is asked under every spelling of its path: without
// a valid credential the answer is never a 2xx nor a 5xx; with one, never a 5xx.

const OPERATOR_TOKEN = 'sweep-operator-token-0123456789abcdefghijklmnop'
const JSON_BODY = '{}'

interface Target {
  method: string
  path: string
  /** the route needs no credential (security: [] in the document) */
  isPublic: boolean
}

type Credential = 'none' | 'garbled bearer' | 'garbled x-api-key' | 'operator token on /v1' | 'valid'

function headersFor(credential: Credential, validKey: string, target: Target): [string, string][] {
  const operatorRoute = target.path.startsWith('/admin/')
  switch (credential) {
    case 'none':
      return []
    case 'garbled bearer':
      return [['Authorization', 'Bearer doc_test_0000000000000000000000000000000000000000']]
    case 'garbled x-api-key':
      return [['X-API-Key', 'doc_live_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz']]
    // a workspace key on the operator API, the operator token on /v1: both wrong credentials
    case 'operator token on /v1':
      return [['Authorization', `Bearer ${operatorRoute ? validKey : OPERATOR_TOKEN}`]]
    case 'valid':
      return [['Authorization', `Bearer ${operatorRoute ? OPERATOR_TOKEN : validKey}`]]
  }
}

function concretePath(openApiPath: string): string {
  return openApiPath.replace(/\{[^}]+\}/g, 'abc_0000000000000000000000000')
}

describe('path and encoding sweep (issue 13)', () => {
  let t: TestKernel
  let ws: TestWorkspace
  let port: number
  let targets: Target[]

  beforeAll(async () => {
    t = await startTestKernel({
      env: { DOCSVC_OPERATOR_TOKEN: OPERATOR_TOKEN, DOCSVC_ANONYMOUS_REQUESTS_PER_SECOND: '1000000' },
    })
    ws = await t.createWorkspace({ plan: 'scale' })
    await t.setPlanLimits('scale', { requests_per_second: 1_000_000 })
    await t.kernel.app.listen({ port: 0, host: '127.0.0.1' })
    port = (t.kernel.app.server.address() as AddressInfo).port
    const doc = (await t.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as OpenApiDocument
    targets = [...operationsOf(doc)].map(([path, method, operation]) => ({
      method: method.toUpperCase(),
      path: concretePath(path),
      isPublic: Array.isArray(operation.security) && operation.security.length === 0,
    }))
    // hidden from the document, guarded by the operator token
    targets.push(
      { method: 'GET', path: '/admin/v1/workspaces', isPublic: false },
      { method: 'POST', path: '/admin/v1/workspaces', isPublic: false },
      { method: 'GET', path: '/admin/v1/webhook-endpoints/disabled', isPublic: false },
      { method: 'GET', path: `/admin/v1/workspaces/${ws.workspace.id}/members`, isPublic: false },
      { method: 'PATCH', path: `/admin/v1/workspaces/${ws.workspace.id}/settings`, isPublic: false },
      // public, and a made-up link is refused whatever the credential (403 invalid_signature)
      { method: 'POST', path: '/verify-email/abc_0000000000000000000000000.x', isPublic: true },
    )
  })
  afterAll(() => t?.close())

  it('the two requests the review reproduced need a key', async () => {
    for (const target of ['/%761/account', '/v%31/account']) {
      const res = await sendRequest(port, { target })
      expect(res.status, target).toBe(401)
      expect(JSON.parse(res.body).code).toBe('authentication_required')
    }
    // refused before the body is read: the answer comes although the body never arrives
    const upload = await sendRequest(
      port,
      { method: 'POST', target: '/%761/uploads', headers: [['Content-Length', '1000000']], body: 'x' },
      { timeoutMs: 5000 },
    )
    expect(upload.status).toBe(401)
  })

  it('no spelling of any route answers 2xx without a valid credential, nor 5xx with any', async () => {
    const credentials: Credential[] = [
      'none',
      'garbled bearer',
      'garbled x-api-key',
      'operator token on /v1',
      'valid',
    ]
    const failures: string[] = []
    const statuses = new Map<number, number>()
    const cases: (() => Promise<void>)[] = []
    for (const target of targets) {
      const spellings: [string, string][] = [['as written', target.path], ...pathVariants(target.path)]
      for (const [label, requestTarget] of spellings) {
        for (const credential of credentials) {
          cases.push(async () => {
            const hasBody = ['POST', 'PUT', 'PATCH'].includes(target.method)
            const res: WireResponse = await sendRequest(
              port,
              {
                method: target.method,
                target: requestTarget,
                headers: [
                  ...headersFor(credential, ws.testKey, target),
                  ...(hasBody ? ([['Content-Type', 'application/json']] as [string, string][]) : []),
                ],
                ...(hasBody ? { body: JSON_BODY } : {}),
              },
              { timeoutMs: 10_000 },
            )
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
            const what = `${target.method} ${requestTarget} (${label}, ${credential}) -> ${res.status}`
            if (res.status >= 500) failures.push(`${what}: ${res.body.slice(0, 160)}`)
            else if (res.status < 300 && credential !== 'valid' && !target.isPublic) failures.push(what)
            else if (res.status >= 400) {
              const problems = problemViolations(res, { head: target.method === 'HEAD' })
              if (problems.length) failures.push(`${what}: ${problems.join('; ')}`)
            }
          })
        }
      }
    }
    await inParallel(cases, 8)
    console.log(
      `path sweep: ${targets.length} routes, ${cases.length} requests; statuses ${JSON.stringify(
        Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      )}`,
    )
    expect(failures.slice(0, 30)).toEqual([])
    // the sweep reached the handlers: some answers were granted with a valid key
    expect([...statuses.keys()].some((s) => s < 300)).toBe(true)
  }, 180_000)
})
