import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../../core/src/renders/fake-render-plugins.fixture.ts'
import {
  startTestKernel,
  TEST_DIALECTS,
  type TestKernel,
  type TestWorkspace,
} from '../../core/src/testing/index.ts'
import { defaultWebhookSettings, type WebhookSettings } from '../../core/src/webhooks/webhook-settings.ts'
import { WebhookReceiver, waitFor } from './webhooks-receiver.ts'

const LOCAL = { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32,::1/128' }

describe.each(TEST_DIALECTS)('webhook deliveries to a local receiver on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace
  let receiver: WebhookReceiver
  let base: string
  let settings: WebhookSettings
  let clock: number | undefined

  beforeAll(async () => {
    receiver = new WebhookReceiver()
    base = await receiver.start()
    t = await startTestKernel({
      dialect,
      env: LOCAL,
      builtins: FAKE_RENDER_BUILTINS,
      roles: ['api', 'worker'],
    })
    ws = await t.createWorkspace()
    settings = t.kernel.container.cradle.webhookSettings
  })
  afterAll(async () => {
    await t?.close()
    await receiver?.close()
  })
  beforeEach(() => {
    clock = undefined
    receiver.received.length = 0
    receiver.secrets = []
    Object.assign(settings, {
      ...defaultWebhookSettings(),
      pollMs: 20,
      now: () => new Date(clock ?? Date.now()),
    })
  })

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.inject({ method, url, key: ws.testKey, ...(payload ? { payload } : {}) })
  async function endpoint(path: string, body: object = {}) {
    const res = await api('POST', '/v1/webhook-endpoints', {
      url: base + path,
      events: ['batch.completed'],
      ...body,
    })
    expect(res.statusCode).toBe(201)
    return res.json() as { id: string; secret: string }
  }
  const emit = (
    type: 'batch.completed' | 'template.published' = 'batch.completed',
    data: object = { object: { id: 'bat_x' } },
  ) =>
    t.kernel.container.cradle.eventOutbox.emit(t.kernel.db, {
      workspaceId: ws.workspace.id,
      type,
      test: true,
      data: data as Record<string, unknown>,
    })
  const delivery = async (id: string) => (await api('GET', `/v1/webhook-deliveries/${id}`)).json()
  async function deliveriesOf(endpointId: string) {
    return (await api('GET', `/v1/webhook-deliveries?endpoint_id=${endpointId}`)).json().data as {
      id: string
      status: string
      attempt: number
      next_attempt_at: string | null
      event_id: string
    }[]
  }
  const settled = (endpointId: string, status: string) =>
    waitFor(
      async () => (await deliveriesOf(endpointId)).find((d) => d.status === status),
      `a ${status} delivery`,
    )

  it('delivers a signed event that standardwebhooks verifies against the raw body, as SPEC 6.4 says', async () => {
    const e = await endpoint('/ok/a', { headers: { 'X-Tenant': 'acme' } })
    const quiet = await endpoint('/ok/other-type', { events: ['render.failed'] })
    receiver.secrets = [e.secret]
    const event = await emit()
    const got = await waitFor(() => receiver.on('/ok/a')[0], 'the delivery')
    expect(got.verifiedBy).toEqual([0])
    expect(got.headers['content-type']).toBe('application/json')
    expect(got.headers['user-agent']).toBe('Doc-Service-Webhooks/1.0')
    expect(got.headers['x-tenant']).toBe('acme')
    expect(got.headers['webhook-id']).toBe(event.id)
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30)
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
    expect(got.body).toEqual({ ...event, test: true })
    // a tampered body fails verification with the same library
    const { Webhook } = await import('standardwebhooks')
    expect(() =>
      new Webhook(e.secret).verify(
        got.raw.toString().replace('bat_x', 'bat_y'),
        got.headers as Record<string, string>,
      ),
    ).toThrow()

    const d = await settled(e.id, 'succeeded')
    const detail = await delivery(d.id)
    expect(detail).toMatchObject({
      status: 'succeeded',
      attempt: 1,
      event_id: event.id,
      next_attempt_at: null,
    })
    expect(detail.response).toMatchObject({ status: 200, body_excerpt: 'thanks /ok/a', error: null })
    expect(detail.response.latency_ms).toBeGreaterThanOrEqual(0)
    expect(detail.request.url).toBe(`${base}/ok/a`)
    expect(detail.request.headers['webhook-id']).toBe(event.id)
    expect(detail.attempts).toHaveLength(1)
    expect(await deliveriesOf(quiet.id)).toEqual([])
    expect(receiver.on('/ok/other-type')).toEqual([])
  })

  it('signs with both secrets while a rolled one lives, then with the new one alone', async () => {
    const e = await endpoint('/ok/roll')
    const rolled = (
      await api('POST', `/v1/webhook-endpoints/${e.id}/roll-secret`, { expire_previous_in: 600 })
    ).json()
    receiver.secrets = [e.secret, rolled.secret]
    await emit()
    const both = await waitFor(() => receiver.on('/ok/roll')[0], 'the delivery')
    expect(String(both.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(both.verifiedBy).toEqual([0, 1])

    const again = (
      await api('POST', `/v1/webhook-endpoints/${e.id}/roll-secret`, { expire_previous_in: 0 })
    ).json()
    receiver.secrets = [e.secret, rolled.secret, again.secret]
    await emit()
    const one = await waitFor(() => receiver.on('/ok/roll')[1], 'the second delivery')
    expect(String(one.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(one.verifiedBy).toEqual([2])
  })

  it('counts 500, a redirect (not followed), a closed socket and a slow answer as failures', async () => {
    settings.timeoutMs = 300
    const cases = [
      ['/fail', /^HTTP 500$/, 500],
      ['/redirect', /^redirect to \/ok not followed$/, 302],
      ['/close', /socket|closed|other side/i, null],
      ['/slow/1500', /^no answer within 300 ms$/, null],
    ] as const
    const endpoints = await Promise.all(cases.map(([path]) => endpoint(path)))
    await emit()
    for (const [i, [path, error, status]] of cases.entries()) {
      const d = await settled(endpoints[i]!.id, 'failed')
      const detail = await delivery(d.id)
      expect(detail.response.error, path).toMatch(error)
      expect(detail.response.status, path).toBe(status)
      expect(detail.attempt).toBe(1)
      // the second attempt is due about 5 s later (SPEC 6.4), up to 10 % either way
      const finished = new Date(detail.response.attempted_at).getTime() + detail.response.latency_ms
      const due = new Date(detail.next_attempt_at).getTime() - finished
      expect(due, path).toBeGreaterThanOrEqual(4500 - 50)
      expect(due, path).toBeLessThanOrEqual(5500 + 50)
    }
    expect(receiver.on('/ok')).toEqual([])
    // the slow receiver was given up on at the limit, long before it would have answered
    const slow = await delivery((await deliveriesOf(endpoints[3]!.id))[0]!.id)
    expect(slow.response.latency_ms).toBeGreaterThanOrEqual(290)
    expect(slow.response.latency_ms).toBeLessThan(1500)
    // the limit in force unless changed is the SPEC's 10 seconds
    expect(defaultWebhookSettings().timeoutMs).toBe(10_000)
  })

  it('retries at 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h on the controlled clock, then is exhausted', async () => {
    clock = Date.parse('2026-11-22T12:00:00Z')
    settings.random = () => 0.5 // no jitter: the schedule is exact
    const e = await endpoint('/fail/schedule')
    await emit()
    const delays = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]
    let expectedDue = clock
    for (let attempt = 1; attempt <= 8; attempt++) {
      await waitFor(() => receiver.on('/fail/schedule').length === attempt, `attempt ${attempt}`)
      const d = await waitFor(
        async () => (await deliveriesOf(e.id)).find((x) => x.attempt === attempt && x.status !== 'pending'),
        `attempt ${attempt} logged`,
      )
      if (attempt === 8) {
        expect(d).toMatchObject({ status: 'exhausted', next_attempt_at: null })
        break
      }
      expectedDue += delays[attempt - 1]!
      expect(d.status).toBe('failed')
      expect(d.next_attempt_at).toBe(new Date(expectedDue).toISOString())
      // a second short of due: nothing goes out
      clock = expectedDue - 1000
      await new Promise((resolve) => setTimeout(resolve, 150))
      expect(receiver.on('/fail/schedule')).toHaveLength(attempt)
      clock = expectedDue
    }
    expect(expectedDue - Date.parse('2026-11-22T12:00:00Z')).toBe(99_305_000) // 27 h 35 min 5 s
    const detail = await delivery((await deliveriesOf(e.id))[0]!.id)
    expect(detail.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
  })

  it('switches an endpoint off after 5 days of failures; a disabled endpoint gets no new events', async () => {
    clock = Date.parse('2026-11-01T00:00:00Z')
    settings.retryDelaysMs = []
    const e = await endpoint('/fail/five-days')
    await emit()
    await settled(e.id, 'exhausted')
    clock += 5 * 86_400_000 - 60_000
    await emit()
    await waitFor(
      async () => (await deliveriesOf(e.id)).filter((d) => d.status === 'exhausted').length === 2,
      'second failure',
    )
    expect((await api('GET', `/v1/webhook-endpoints/${e.id}`)).json().enabled).toBe(true)
    clock += 60_000
    await emit()
    await waitFor(
      async () => (await deliveriesOf(e.id)).filter((d) => d.status === 'exhausted').length === 3,
      'third failure',
    )
    expect((await api('GET', `/v1/webhook-endpoints/${e.id}`)).json()).toMatchObject({
      enabled: false,
      disabled_reason: 'failing',
    })
    await emit()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await deliveriesOf(e.id)).toHaveLength(3)
    expect(receiver.on('/fail/five-days')).toHaveLength(3)
  })

  it("holds a disabled endpoint's retries until it is enabled, and stops a deleted one's", async () => {
    clock = Date.now()
    const e = await endpoint('/fail/paused')
    await emit()
    const first = await settled(e.id, 'failed')
    await api('PATCH', `/v1/webhook-endpoints/${e.id}`, { enabled: false })
    clock += 60_000
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(receiver.on('/fail/paused')).toHaveLength(1)
    await api('PATCH', `/v1/webhook-endpoints/${e.id}`, { enabled: true })
    await waitFor(() => receiver.on('/fail/paused').length === 2, 'the held retry')
    await waitFor(async () => (await delivery(first.id)).status === 'failed', 'the retry logged')
    expect(await api('DELETE', `/v1/webhook-endpoints/${e.id}`)).toMatchObject({ statusCode: 204 })
    expect(await delivery(first.id)).toMatchObject({ status: 'failed', next_attempt_at: null, attempt: 2 })
    clock += 86_400_000
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(receiver.on('/fail/paused')).toHaveLength(2)
  })

  it('sends a delivery whose job was lost, and an attempt once even when its job is queued twice', async () => {
    clock = Date.now()
    const e = await endpoint('/ok/lost')
    const { webhookScheduler, webhookDeliveryRepository } = t.kernel.container.cradle
    const event = await emit()
    await settled(e.id, 'succeeded')
    // a delivery committed but whose job never reached the queue
    const row = webhookScheduler.row({ event, test: true, endpointId: e.id, url: null, manual: true })
    await webhookDeliveryRepository.insertMany([row])
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(receiver.on('/ok/lost')).toHaveLength(1)
    clock += settings.requeueAfterMs
    await waitFor(() => receiver.on('/ok/lost').length === 2, 'the lost delivery')
    await waitFor(async () => (await delivery(row.id)).status === 'succeeded', 'the lost delivery logged')
    // the same attempt's job twice: one request
    const again = webhookScheduler.row({ event, test: true, endpointId: e.id, url: null, manual: true })
    await webhookDeliveryRepository.insertMany([again])
    await webhookScheduler.send(
      [
        { id: again.id, attempt: 0 },
        { id: again.id, attempt: 0 },
      ],
      new Date(again.due_at as string),
    )
    await waitFor(async () => (await delivery(again.id)).status === 'succeeded', 'the doubled job')
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(receiver.on('/ok/lost')).toHaveLength(3)
    expect((await delivery(again.id)).attempts).toHaveLength(1)
  })

  it('keeps a burst in the table and at most maxQueued deliveries on the queue, and sends them all', async () => {
    settings.maxQueued = 2
    // a workspace of its own: the endpoints of the other tests get none of these events
    const own = await t.createWorkspace({ name: 'Burst' })
    const created = await t.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      key: own.testKey,
      payload: { url: `${base}/slow/100/burst`, events: ['batch.completed'] },
    })
    const endpointId = created.json().id as string
    const { eventOutbox } = t.kernel.container.cradle
    for (let i = 0; i < 6; i++) {
      await eventOutbox.emit(t.kernel.db, {
        workspaceId: own.workspace.id,
        type: 'batch.completed',
        test: true,
        data: { object: { id: `bat_${i}` } },
      })
    }
    const held = async () => {
      const at = new Date().toISOString()
      const row = await t.kernel.db.kysely
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('endpoint_id', '=', endpointId)
        .where('due_at', '>', at)
        .where('next_attempt_at', '<=', at)
        .executeTakeFirstOrThrow()
      return Number(row.n)
    }
    let mostHeld = 0
    await waitFor(async () => {
      mostHeld = Math.max(mostHeld, await held())
      return receiver.on('/slow/100/burst').length === 6
    }, 'all six deliveries')
    expect(mostHeld).toBeGreaterThan(0)
    expect(mostHeld).toBeLessThanOrEqual(2)
  })

  it('replays a delivery: the same event id and body arrive again, as a new delivery', async () => {
    const e = await endpoint('/ok/replay')
    receiver.secrets = [e.secret]
    const event = await emit()
    const first = await settled(e.id, 'succeeded')
    const res = await api('POST', `/v1/webhook-deliveries/${first.id}/replay`)
    expect(res.statusCode).toBe(202)
    const second = await waitFor(() => receiver.on('/ok/replay')[1], 'the replay')
    const original = receiver.on('/ok/replay')[0]!
    expect(second.headers['webhook-id']).toBe(event.id)
    expect(second.raw.equals(original.raw)).toBe(true)
    expect(second.verifiedBy).toEqual([0])
    await waitFor(async () => (await delivery(res.json().id)).status === 'succeeded', 'the replay logged')
  })

  it('sends test events with test: true, also to an endpoint that filters templates', async () => {
    const e = await endpoint('/ok/test-event', {
      events: ['template.published'],
      template_ids: ['tpl_0123456789abcdefghjkmnpqrs'],
    })
    receiver.secrets = [e.secret]
    const res = await api('POST', `/v1/webhook-endpoints/${e.id}/test`, { event: 'template.published' })
    expect(res.statusCode).toBe(202)
    const got = await waitFor(() => receiver.on('/ok/test-event')[0], 'the test event')
    expect(got.verifiedBy).toEqual([0])
    expect(got.body).toMatchObject({ type: 'template.published', test: true })
    // the filter: an event about another template does not reach it, one about its template does
    await emit('template.published', { object: { id: 'tpl_other000000000000000000000' } })
    await emit('template.published', { object: { id: 'tpl_0123456789abcdefghjkmnpqrs' } })
    await waitFor(() => receiver.on('/ok/test-event')[1], 'the matching event')
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(receiver.on('/ok/test-event')).toHaveLength(2)
  })

  it("signs a render's inline webhook with the default endpoint's secret; the default then gets none", async () => {
    const def = await endpoint('/ok/default', { events: ['render.succeeded'], is_default: true })
    const other = await endpoint('/ok/non-default', { events: ['render.succeeded'] })
    receiver.secrets = [def.secret, other.secret]
    const render = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.testKey,
      payload: { input: { type: 'html', html: '<p>hook</p>' }, webhook: { url: `${base}/ok/inline` } },
    })
    expect(render.statusCode).toBe(200)
    const inline = await waitFor(() => receiver.on('/ok/inline')[0], 'the inline webhook')
    expect(inline.verifiedBy).toEqual([0])
    expect(inline.body).toMatchObject({
      type: 'render.succeeded',
      test: true,
      data: { object: { id: render.json().id } },
    })
    await waitFor(() => receiver.on('/ok/non-default')[0], 'the non-default endpoint')
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(receiver.on('/ok/default')).toEqual([])
    const listed = (await api('GET', `/v1/webhook-deliveries?render_id=${render.json().id}`)).json().data
    expect(listed.map((d: { endpoint_id: string | null }) => d.endpoint_id).sort()).toEqual(
      [null, other.id].sort(),
    )

    // replaying the inline delivery needs the default endpoint, whose secret signs it
    const inlineDelivery = listed.find((d: { endpoint_id: string | null }) => d.endpoint_id === null)
    await api('PATCH', `/v1/webhook-endpoints/${def.id}`, { enabled: false })
    const refused = await api('POST', `/v1/webhook-deliveries/${inlineDelivery.id}/replay`)
    expect({ status: refused.statusCode, code: refused.json().code }).toEqual({
      status: 409,
      code: 'conflict',
    })
    await api('PATCH', `/v1/webhook-endpoints/${def.id}`, { enabled: true })
    const replay = await api('POST', `/v1/webhook-deliveries/${inlineDelivery.id}/replay`)
    expect(replay.statusCode).toBe(202)
    const again = await waitFor(() => receiver.on('/ok/inline')[1], 'the replayed inline webhook')
    expect(again.verifiedBy).toEqual([0])
    expect(again.headers['webhook-id']).toBe(inline.headers['webhook-id'])
  })

  it('forgets deliveries and their attempts after 30 days', async () => {
    const e = await endpoint('/ok/old')
    const sent = (await api('POST', `/v1/webhook-endpoints/${e.id}/test`, { event: 'batch.progress' })).json()
    await settled(e.id, 'succeeded')
    clock = Date.now() + 29 * 86_400_000
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect((await api('GET', `/v1/webhook-deliveries/${sent.id}`)).statusCode).toBe(200)
    clock = Date.now() + 31 * 86_400_000
    await waitFor(
      async () => (await api('GET', `/v1/webhook-deliveries/${sent.id}`)).statusCode === 404,
      'the sweep',
    )
    const attempts = await t.kernel.db.kysely
      .selectFrom('webhook_delivery_attempts')
      .select('delivery_id')
      .where('delivery_id', '=', sent.id)
      .execute()
    expect(attempts).toEqual([])
  })
})

describe.each(TEST_DIALECTS)('webhook deliveries across processes on %s', (dialect) => {
  let receiver: WebhookReceiver
  let base: string

  beforeAll(async () => {
    receiver = new WebhookReceiver()
    base = await receiver.start()
  })
  afterAll(() => receiver?.close())

  it('delivers after a restart what a process committed but never sent', async () => {
    // process A: the API only, no worker: it commits events and deliveries and dies before sending
    const a = await startTestKernel({ dialect, env: LOCAL })
    let b: TestKernel | undefined
    try {
      const ws = await a.createWorkspace()
      const created = await a.inject({
        method: 'POST',
        url: '/v1/webhook-endpoints',
        key: ws.testKey,
        payload: { url: `${base}/ok/restart`, events: ['batch.completed'] },
      })
      receiver.secrets = [created.json().secret]
      const { eventOutbox, webhookDispatcher, webhookScheduler } = a.kernel.container.cradle
      // one event got as far as its delivery row and its job on the (durable) queue...
      const queued = await eventOutbox.emit(a.kernel.db, {
        workspaceId: ws.workspace.id,
        type: 'batch.completed',
        test: true,
        data: { object: { id: 'bat_queued' } },
      })
      await webhookDispatcher.dispatchPending()
      expect(await webhookScheduler.sendDue()).toBe(1)
      // ...the other was committed and nothing more
      const undispatched = await eventOutbox.emit(a.kernel.db, {
        workspaceId: ws.workspace.id,
        type: 'batch.completed',
        test: true,
        data: { object: { id: 'bat_undispatched' } },
      })
      expect(receiver.on('/ok/restart')).toEqual([])
      // process B on the same database, with a worker
      b = await startTestKernel({
        dialect,
        env: { ...LOCAL, DOCSVC_DATA_DIR: a.dataDir },
        roles: ['api', 'worker'],
        ...(a.pgSchema ? { pgSchema: a.pgSchema } : {}),
      })
      b.kernel.container.cradle.webhookSettings.pollMs = 20
      await waitFor(() => receiver.on('/ok/restart').length >= 2, 'both events after the restart')
      const ids = receiver.on('/ok/restart').map((r) => r.headers['webhook-id'])
      expect(ids.sort()).toEqual([queued.id, undispatched.id].sort())
      expect(receiver.on('/ok/restart').every((r) => r.verifiedBy.length === 1)).toBe(true)
    } finally {
      await b?.close()
      await a.close()
    }
  })

  it('refuses at connection time an address allowed when the endpoint was made (a rebinding name)', async () => {
    const a = await startTestKernel({ dialect, env: LOCAL })
    let b: TestKernel | undefined
    try {
      const ws = await a.createWorkspace()
      const created = await a.inject({
        method: 'POST',
        url: '/v1/webhook-endpoints',
        key: ws.testKey,
        payload: { url: `${base.replace('127.0.0.1', 'localhost')}/ok/rebind`, events: ['batch.completed'] },
      })
      expect(created.statusCode).toBe(201)
      await a.kernel.container.cradle.eventOutbox.emit(a.kernel.db, {
        workspaceId: ws.workspace.id,
        type: 'batch.completed',
        test: true,
        data: { object: { id: 'bat_rebind' } },
      })
      // the worker runs without the allowance: the name now leads to a loopback address
      b = await startTestKernel({
        dialect,
        env: { DOCSVC_DATA_DIR: a.dataDir },
        roles: ['api', 'worker'],
        ...(a.pgSchema ? { pgSchema: a.pgSchema } : {}),
      })
      b.kernel.container.cradle.webhookSettings.pollMs = 20
      const failed = await waitFor(async () => {
        const list = (
          await b!.inject({ method: 'GET', url: '/v1/webhook-deliveries', key: ws.testKey })
        ).json().data as { id: string; status: string }[]
        return list.find((d) => d.status === 'failed')
      }, 'the refused attempt')
      const detail = (
        await b.inject({ method: 'GET', url: `/v1/webhook-deliveries/${failed.id}`, key: ws.testKey })
      ).json()
      expect(detail.response.error).toMatch(/^url_not_allowed: .*(loopback|not allowed)/)
      expect(receiver.on('/ok/rebind')).toEqual([])
    } finally {
      await b?.close()
      await a.close()
    }
  })
})
