import v8 from 'node:v8'
import vm from 'node:vm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_OUTPUT_BUILTINS } from '../../core/src/renders/fake-render-plugins.fixture.ts'
import {
  startTestKernel,
  TEST_DIALECTS,
  type TestKernel,
  type TestWorkspace,
} from '../../core/src/testing/index.ts'
import { type FuzzRequest, requestsFor } from './fuzz-requests.ts'
import { type OpenApiDocument, operationsOf } from './openapi-document.ts'
import { problemViolations } from './problem-check.ts'
import { createResources, type ResourceIds, socketCall } from './resource-fixtures.ts'
import { seededRandom, seedFromEnv } from './seeded-random.ts'
import { servedDocument } from './served-document.ts'
import { fetchWire, inParallel, type WireResponse } from './wire-client.ts'

// Issue 13's schema-driven fuzzing: every operation of the served OpenAPI document gets requests
// generated from its own schemas (valid, boundary and invalid bodies, queries, path parameters
// and headers). Never a 5xx; every 4xx a problem+json with a code from the table; afterwards the
// process answers /healthz and its heap is back near where it started. Renders go through the
// real inputs, templating and PDF tools with fake Chromium outputs (no browser), so sync renders
// finish in milliseconds. FUZZ_SEED replays a run; FUZZ_REQUESTS changes its size.

const SEED = seedFromEnv(20_261_124, 'FUZZ_SEED')
const REQUESTS = Number(process.env.FUZZ_REQUESTS) || 1200
const WIDTH = 8
const MB = 1024 * 1024
/** Generous: the heap may grow by caches (compiled schemas, prepared statements), never by the requests. */
const HEAP_GROWTH_LIMIT = 80 * MB

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

async function settledHeap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc()
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return process.memoryUsage().heapUsed
}

interface Draw {
  /** `METHOD /path/{param}` of the document */
  operation: string
  label: string
  request: FuzzRequest
}

function send(base: string, { method, target, headers, body }: FuzzRequest): Promise<WireResponse> {
  return fetchWire(
    `${base}${target}`,
    { method, headers, redirect: 'manual', ...(body !== undefined ? { body } : {}) },
    30_000,
  )
}

describe.each(TEST_DIALECTS)('schema-driven fuzzing on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace
  let base: string
  let doc: OpenApiDocument
  let ids: ResourceIds

  beforeAll(async () => {
    t = await startTestKernel({
      dialect,
      builtins: FAKE_OUTPUT_BUILTINS,
      roles: ['api', 'worker'],
      env: {
        DOCSVC_NETWORK_ALLOW: '127.0.0.1/32',
        DOCSVC_ANONYMOUS_REQUESTS_PER_SECOND: '1000000',
        DOCSVC_LOG_LEVEL: 'error',
      },
    })
    ws = await t.createWorkspace({ plan: 'scale' })
    // a sync render waits at most 5 s for the worker (then 202): the queue the run fills cannot
    // hold an answer near the client's deadline, which is there to catch requests never answered
    await t.setPlanLimits('scale', {
      requests_per_second: 1_000_000,
      test_renders_per_minute: 1_000_000,
      sync_timeout_seconds: 5,
    })
    ;({ base, doc } = await servedDocument(t))
    ids = await createResources(socketCall(base), ws.testKey, {
      webhookUrl: 'http://127.0.0.1:1/hook',
      withFiles: true,
    })
  }, 60_000)
  afterAll(() => t?.close())

  /** Every operation's share of the run, drawn from its own seed, then shuffled together. */
  function draws(count: number, seed: number): Draw[] {
    const operations = [...operationsOf(doc)]
    const each = Math.max(1, Math.ceil(count / operations.length))
    const all = operations.flatMap(([path, method, operation], i) =>
      fc
        .sample(requestsFor(path, method, operation, ids, { test: ws.testKey, live: ws.liveKey }), {
          seed: seed + i,
          numRuns: each,
        })
        .map((request, j) => ({
          operation: `${method.toUpperCase()} ${path}`,
          label: `[seed ${seed} op ${i} draw ${j}] ${request.flavour} ${request.method} ${request.target.slice(0, 120)}`,
          request,
        })),
    )
    const random = seededRandom(seed)
    for (let i = all.length - 1; i > 0; i--) {
      const j = random.int(0, i)
      ;[all[i], all[j]] = [all[j] as Draw, all[i] as Draw]
    }
    return all
  }

  async function barrage(
    list: Draw[],
    counts: Map<number, number>,
    passed = new Set<string>(),
  ): Promise<string[]> {
    const found = await inParallel(
      list.map(({ operation, label, request }) => async () => {
        let res: WireResponse
        try {
          res = await send(base, request)
        } catch (err) {
          return [`${label}: ${(err as Error).message}`]
        }
        counts.set(res.status, (counts.get(res.status) ?? 0) + 1)
        if (res.status < 400) passed.add(operation)
        if (res.status >= 500) return [`${label}: ${res.status} ${res.body.slice(0, 300)}`]
        if (res.status < 400) return []
        return problemViolations(res, { head: request.method === 'HEAD' }).map(
          (v) => `${label}: ${v} ${res.body.slice(0, 200)}`,
        )
      }),
      WIDTH,
    )
    return found.flat()
  }

  it('answers generated requests to every operation without a 5xx, every 4xx a known problem', {
    timeout: 240_000,
  }, async () => {
    // a first, small round warms the caches the baseline should already hold
    const warmUp = await barrage(draws(60, SEED + 1_000_000), new Map())
    const baseline = await settledHeap()

    const counts = new Map<number, number>()
    const list = draws(REQUESTS, SEED)
    const flavours = Object.fromEntries(
      (['valid', 'boundary', 'invalid'] as const).map((f) => [
        f,
        list.filter((d) => d.request.flavour === f).length,
      ]),
    )
    const passed = new Set<string>()
    const wrong = await barrage(list, counts, passed)

    const health = await fetchWire(`${base}/healthz`)
    const heap = await settledHeap()
    const statuses = Object.fromEntries([...counts].sort(([a], [b]) => a - b))
    const operations = [...operationsOf(doc)].map(([path, method]) => `${method.toUpperCase()} ${path}`)
    const neverPassed = operations.filter((o) => !passed.has(o))
    console.log(
      `[schema fuzz ${dialect}] seed ${SEED} (FUZZ_SEED replays); ${list.length} requests over ${operations.length} operations (${passed.size} answered a 2xx/3xx at least once; never: ${neverPassed.join(', ') || 'none'}); flavours ${JSON.stringify(flavours)}; statuses ${JSON.stringify(statuses)}; heap after GC ${(baseline / MB).toFixed(1)} MB before, ${(heap / MB).toFixed(1)} MB after`,
    )
    expect([...warmUp, ...wrong].slice(0, 40)).toEqual([])
    expect(health.status).toBe(200)
    // the API and its worker still serve: a render right after the run succeeds
    const after = await socketCall(base)({
      method: 'POST',
      path: '/v1/pdf/from-html',
      key: ws.testKey,
      body: { html: '<p>after the fuzzing</p>', mode: 'sync' },
    })
    expect(after.status, after.body).toBe(200)
    expect(JSON.parse(after.body).status).toBe('succeeded')
    expect(heap - baseline).toBeLessThan(HEAP_GROWTH_LIMIT)
    // the run reached the handlers, not only the validators
    expect([...counts.keys()].some((s) => s >= 200 && s < 300)).toBe(true)
  })
})
