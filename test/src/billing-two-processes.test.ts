import { describe, expect, it } from 'vitest'
import { cliJson } from '../../cli/src/cli-test-support.ts'
import { loadConfig } from '../../core/src/kernel/config.ts'
import { TEST_DIALECTS } from '../../core/src/testing/index.ts'
import { apiCaller, CrashCluster, openInstallationDb } from './crash-harness/index.ts'
import { WebhookReceiver } from './webhooks-receiver.ts'

// Integration suite (real processes, like crash-restart.test.ts): issue 16's "counters exact
// after 500 parallel renders across two processes" on PostgreSQL. Two `docsvc serve` processes
// (each its own port, API and worker) on one scratch database; 500 live renders and some test
// renders sent in parallel, alternating between the two ports, on a plan whose included renders
// and top-up limit run out during the burst. Everything is judged from outside, as a customer
// and an operator see it: the answers, GET /v1/account and /v1/usage, the admin API and the
// admin CLI's billing view, and the usage.threshold_reached deliveries to a local receiver.
// The renders are tiny HTML pages drawn by Chromium (the harness's default of no browser is
// overridden): 540 of them took 25 s on two cores. Admission reserves a unit of the cycle
// (decision 0097), so exactly the allowed renders succeed however many are in flight; then the
// operator allows one top-up more and a burst of async renders, which answer at once, is refused
// at creation past exactly that many.

const LIVE_RENDERS = 500
const TEST_RENDERS = 40
// requests in flight at once, over both processes
const IN_FLIGHT = 24
const INCLUDED = 200
const TOP_UP_RENDERS = 50
const TOP_UP_LIMIT = 4
/** what the cycle allows: the included renders and the top-ups the limit lets it take */
const ALLOWED = INCLUDED + TOP_UP_RENDERS * TOP_UP_LIMIT
/** async renders sent after the operator allows one top-up more (TOP_UP_RENDERS renders) */
const ASYNC_RENDERS = 150
const TOKEN = 'operator-secret-token-0123456789abcdef'
const FINAL = new Set(['succeeded', 'failed', 'canceled'])

interface Answer {
  live: boolean
  server: number
  status: number
  body: Record<string, unknown>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs `count` jobs, at most `width` at once. */
async function inParallel<T>(count: number, width: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count)
  let next = 0
  const lane = async () => {
    for (let i = next++; i < count; i = next++) results[i] = await job(i)
  }
  await Promise.all(Array.from({ length: width }, lane))
  return results
}

describe.runIf(TEST_DIALECTS.includes('postgres'))('billing across two processes on postgres', () => {
  it(`counts ${LIVE_RENDERS} parallel live renders over two serve processes exactly: exactly the allowed ones succeed, 402s past the limit (async ones at creation), each threshold delivered once, test renders free`, async () => {
    const cluster = await CrashCluster.create({
      dialect: 'postgres',
      servers: 2,
      env: {
        DOCSVC_OPERATOR_TOKEN: TOKEN,
        DOCSVC_WORKER_CONCURRENCY: '8',
        // a render slowed by the load must not fail on the harness's short crash timeout
        DOCSVC_RENDER_TIMEOUT_SECONDS: '120',
        // the harness's crash runs need no browser; these renders do: the installation's default
        DOCSVC_CHROMIUM_PATH: loadConfig({}).chromiumPath,
      },
    })
    const receiver = new WebhookReceiver({ tls: cluster.tls })
    try {
      const receiverUrl = await receiver.start()
      const ws = await cluster.liveWorkspace('starter', {
        included_renders: INCLUDED,
        top_up_renders: TOP_UP_RENDERS,
        sync_concurrency: 1_000,
        test_renders_per_minute: 10_000,
      })
      await cluster.start()
      const [urlA, urlB] = cluster.baseUrls as [string, string]
      const liveA = apiCaller(urlA, ws.liveKey)
      const liveB = apiCaller(urlB, ws.liveKey)
      const admin = async (method: string, path: string, body?: object) => {
        const res = await fetch(`${urlB}/admin/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${TOKEN}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        })
        expect(res.status, await res.clone().text()).toBe(200)
        return (await res.json()) as Record<string, unknown>
      }
      expect(
        await admin('PATCH', `/workspaces/${ws.id}/billing`, { top_up_limit: TOP_UP_LIMIT }),
      ).toMatchObject({
        top_up_limit: TOP_UP_LIMIT,
      })
      const endpoint = await liveA('POST', '/v1/webhook-endpoints', {
        url: `${receiverUrl}/ok`,
        events: ['usage.threshold_reached'],
      })
      receiver.secrets = [endpoint.secret as string]

      // every (LIVE / TEST)-th request is a test render, spread through the burst
      const total = LIVE_RENDERS + TEST_RENDERS
      const testEvery = Math.floor(total / TEST_RENDERS)
      const isTest = (i: number) =>
        i % testEvery === testEvery - 1 && Math.floor(i / testEvery) < TEST_RENDERS
      const began = Date.now()
      const answers = await inParallel(total, IN_FLIGHT, async (i): Promise<Answer> => {
        const server = i % 2
        const res = await fetch(`${cluster.baseUrls[server]}/v1/renders`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${isTest(i) ? ws.testKey : ws.liveKey}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({
            mode: 'sync',
            input: { type: 'html', html: `<p>Render ${i}</p>` },
          }),
        })
        return {
          live: !isTest(i),
          server,
          status: res.status,
          body: (await res.json()) as Record<string, unknown>,
        }
      })
      const burstMs = Date.now() - began
      const liveAnswers = answers.filter((a) => a.live)
      const testAnswers = answers.filter((a) => !a.live)
      expect(liveAnswers).toHaveLength(LIVE_RENDERS)
      expect(testAnswers).toHaveLength(TEST_RENDERS)

      // a sync render past the plan's sync timeout answers 202 and goes on: wait for its end
      const finalStatus = async (a: Answer): Promise<string> => {
        let status = a.body.status as string
        while (!FINAL.has(status)) {
          await sleep(200)
          status = (await (a.server === 0 ? liveA : liveB)('GET', `/v1/renders/${a.body.id}`))
            .status as string
        }
        return status
      }
      const created = liveAnswers.filter((a) => a.status === 200 || a.status === 202)
      const finals = await Promise.all(created.map(finalStatus))
      const succeeded = finals.filter((s) => s === 'succeeded').length
      const refused = liveAnswers.filter((a) => a.status === 402)
      const figures = {
        burstMs,
        succeeded,
        refused: refused.length,
        answered202: created.filter((a) => a.status === 202).length,
        byServer: [0, 1].map((s) => ({
          succeeded: created.filter((a) => a.server === s).length,
          refused: refused.filter((a) => a.server === s).length,
        })),
      }
      console.log(`billing across two processes: ${JSON.stringify(figures)}`)
      const why = JSON.stringify(figures)

      // every live render either succeeded or was refused for the limit; nothing else
      expect(
        finals.every((s) => s === 'succeeded'),
        why,
      ).toBe(true)
      expect(created.length + refused.length, why).toBe(LIVE_RENDERS)
      expect(new Set(refused.map((a) => a.body.code)), why).toEqual(new Set(['render_limit_reached']))
      // exactly the cycle's allowance was admitted, however many renders were in flight when it
      // ran out: admission reserves a unit of it (decision 0097)
      expect(succeeded, why).toBe(ALLOWED)
      expect(refused.length, why).toBe(LIVE_RENDERS - ALLOWED)
      // both processes took renders and both refused some
      for (const server of figures.byServer) {
        expect(server.succeeded, why).toBeGreaterThan(0)
        expect(server.refused, why).toBeGreaterThan(0)
      }
      // test renders: rendered all along, watermarked as test, and never stopped by the limit
      for (const a of testAnswers) expect(a.body, why).toMatchObject({ status: 'succeeded', test: true })

      // the counters as the customer sees them, from either process, and as the operator sees
      // them: admin API and admin CLI
      const expectUsage = async (renders: number, topUpLimit: number) => {
        const usage = {
          renders,
          included_renders: INCLUDED,
          overage_renders: renders - INCLUDED,
          top_ups: topUpLimit,
          top_up_limit: topUpLimit,
          renders_until_limit: 0,
        }
        for (const api of [liveA, liveB]) {
          expect((await api('GET', '/v1/account')).usage).toMatchObject(usage)
          expect((await api('GET', '/v1/usage')).total).toBe(renders)
        }
        expect(await admin('GET', `/workspaces/${ws.id}/billing`)).toMatchObject({ usage })
        const cli = await cliJson<{ usage: Record<string, unknown> }>(
          ['workspace', 'billing', ws.id],
          cluster.env,
        )
        expect(cli.usage).toMatchObject(usage)
      }
      await expectUsage(ALLOWED, TOP_UP_LIMIT)

      // one top-up more, then async renders past it: they answer before rendering, so only the
      // reservation stops them, at creation, after exactly the top-up's renders
      await admin('PATCH', `/workspaces/${ws.id}/billing`, { top_up_limit: TOP_UP_LIMIT + 1 })
      const asyncAnswers = await inParallel(ASYNC_RENDERS, IN_FLIGHT, async (i): Promise<Answer> => {
        const server = i % 2
        const res = await fetch(`${cluster.baseUrls[server]}/v1/renders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ws.liveKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ mode: 'async', input: { type: 'html', html: `<p>Async ${i}</p>` } }),
        })
        return { live: true, server, status: res.status, body: (await res.json()) as Record<string, unknown> }
      })
      const queued = asyncAnswers.filter((a) => a.status === 202)
      const asyncRefused = asyncAnswers.filter((a) => a.status === 402)
      const asyncWhy = JSON.stringify({ queued: queued.length, refused: asyncRefused.length })
      expect(queued.length, asyncWhy).toBe(TOP_UP_RENDERS)
      expect(asyncRefused.length, asyncWhy).toBe(ASYNC_RENDERS - TOP_UP_RENDERS)
      expect(new Set(asyncRefused.map((a) => a.body.code))).toEqual(new Set(['render_limit_reached']))
      expect(await Promise.all(queued.map(finalStatus))).toEqual(Array(TOP_UP_RENDERS).fill('succeeded'))
      await expectUsage(ALLOWED + TOP_UP_RENDERS, TOP_UP_LIMIT + 1)

      // after the burst: live refused, test still rendered, by either process
      for (const url of cluster.baseUrls) {
        for (const key of [ws.liveKey, ws.testKey]) {
          const res = await fetch(`${url}/v1/renders`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ input: { type: 'html', html: '<p>One more</p>' } }),
          })
          const body = (await res.json()) as Record<string, unknown>
          if (key === ws.liveKey) expect([res.status, body.code]).toEqual([402, 'render_limit_reached'])
          else expect([res.status, body.status]).toEqual([200, 'succeeded'])
        }
      }

      // each threshold delivered (signed, verified by the receiver) as one event, written by the
      // render that crossed it; the wait ends with vitest's timeout, never on a deadline of its own
      const thresholds = () => {
        const byEvent = new Map<string, { threshold: string; renders: number }>()
        for (const r of receiver.received) {
          if (r.verifiedBy.length === 0) continue
          const object = (r.body.data as { object: { threshold: string; renders: number } }).object
          byEvent.set(String(r.headers['webhook-id']), {
            threshold: object.threshold,
            renders: object.renders,
          })
        }
        return [...byEvent.values()].sort((x, y) => x.renders - y.renders)
      }
      while (thresholds().length < 4) await sleep(250)
      expect(thresholds()).toEqual([
        { threshold: 'included_renders_50', renders: INCLUDED / 2 },
        { threshold: 'included_renders_80', renders: (INCLUDED * 8) / 10 },
        { threshold: 'included_renders_100', renders: INCLUDED },
        { threshold: 'top_up_limit', renders: ALLOWED },
      ])
      // and no other was ever written (raising the limit does not send top_up_limit again in
      // the cycle): every render has finished, so its events are in the
      // outbox by now (they commit with it), delivered or not
      const db = openInstallationDb(cluster.env)
      try {
        const written = await db.kysely
          .selectFrom('events')
          .select('id')
          .where('workspace_id', '=', ws.id)
          .where('type', '=', 'usage.threshold_reached')
          .execute()
        expect(written).toHaveLength(4)
      } finally {
        await db.close()
      }
    } finally {
      await receiver.close()
      await cluster.close()
    }
  }, 300_000)
})
