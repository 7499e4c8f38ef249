import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cycleByDay, DEFAULT_CYCLE_START_DAY } from '../billing/billing-cycle.ts'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'

const TIME_MESSAGE = 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time (e.g. 2026-11-01T00:00:00Z)'

interface Billed {
  at: string
  workspaceId?: string
  kind?: string
  keyId?: string
  source?: string
  templateId?: string | null
  test?: boolean
}

describe.each(TEST_DIALECTS)('GET /v1/usage on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace
  let other: TestWorkspace
  let seq = 0

  beforeAll(async () => {
    t = await startTestKernel({ dialect, builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace({ plan: 'growth' })
    other = await t.createWorkspace({ plan: 'growth' })
    // many requests back to back; the rate limit has its own suite
    await t.setPlanLimits('growth', { requests_per_second: 10_000 })

    // exact buckets: billed rows written directly, each with its render record
    await bill({ at: '2026-03-01T00:00:00.000Z' })
    await bill({ at: '2026-03-01T23:59:59.999Z' })
    await bill({ at: '2026-03-03T12:00:00.000Z' })
    await bill({ at: '2026-03-04T00:00:00.000Z' })
    await bill({ at: '2026-03-02T10:00:00.000Z', workspaceId: other.workspace.id })
    await bill({ at: '2026-03-02T11:00:00.000Z', test: true })

    await bill({
      at: '2026-04-01T05:00:00.000Z',
      keyId: 'key_a',
      kind: 'render',
      source: 'api',
      templateId: 'tpl_a',
    })
    await bill({
      at: '2026-04-01T06:00:00.000Z',
      keyId: 'key_b',
      kind: 'einvoice',
      source: 'api',
      templateId: null,
    })
    await bill({
      at: '2026-04-02T07:00:00.000Z',
      keyId: 'key_a',
      kind: 'render',
      source: 'batch',
      templateId: 'tpl_a',
    })
    await bill({
      at: '2026-04-01T05:30:00.000Z',
      workspaceId: other.workspace.id,
      keyId: 'key_c',
      kind: 'merge',
    })
  })
  afterAll(() => t?.close())

  async function bill(row: Billed) {
    const id = `rnd_usage${String(++seq).padStart(4, '0')}`
    const workspaceId = row.workspaceId ?? ws.workspace.id
    const { kysely } = t.kernel.container.cradle.db
    await kysely
      .insertInto('renders')
      .values({
        id,
        workspace_id: workspaceId,
        test: row.test ? 1 : 0,
        status: 'succeeded',
        input_type: 'html',
        kind: row.kind ?? 'render',
        source: row.source ?? 'api',
        output_format: 'pdf',
        reference: null,
        metadata: null,
        template_id: row.templateId ?? null,
        batch_id: null,
        key_id: row.keyId ?? 'key_a',
        mode: 'sync',
        priority: 'normal',
        request: '{}',
        result: null,
        warnings: '[]',
        error: null,
        retention_days: 1,
        job_id: null,
        attempts: 1,
        created_at: row.at,
        started_at: row.at,
        finished_at: row.at,
        files_expire_at: null,
        updated_at: row.at,
      })
      .execute()
    await kysely
      .insertInto('billed_renders')
      .values({ render_id: id, workspace_id: workspaceId, kind: row.kind ?? 'render', billed_at: row.at })
      .execute()
  }

  const usage = (query: string, key = ws.liveKey) =>
    t.inject({ method: 'GET', url: `/v1/usage${query ? `?${query}` : ''}`, key })

  function problems(res: LightMyRequestResponse) {
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json().code).toBe('validation_error')
    return res.json().errors
  }

  it('defaults to the current cycle in days, counting live renders and not test renders', async () => {
    const fresh = await t.createWorkspace({ plan: 'growth' })
    const render = (key: string) =>
      t.inject({ method: 'POST', url: '/v1/renders', key, payload: { input: { type: 'html', html: 'u' } } })
    expect((await render(fresh.liveKey)).json().status).toBe('succeeded')
    expect((await render(fresh.testKey)).json()).toMatchObject({ status: 'succeeded', test: true })

    const cycle = cycleByDay(new Date(), DEFAULT_CYCLE_START_DAY)
    const res = await usage('', fresh.liveKey)
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({
      object: 'usage',
      from: cycle.start,
      to: cycle.end,
      granularity: 'day',
      group_by: null,
      total: 1,
    })
    expect(body.groups).toBeUndefined()
    const days = (Date.parse(cycle.end) - Date.parse(cycle.start)) / 86_400_000
    expect(body.series).toHaveLength(days)
    expect(body.series[0]).toEqual({ start: cycle.start, end: expect.any(String), renders: 0 })
    const today = new Date().toISOString().slice(0, 10)
    for (const bucket of body.series) {
      expect(bucket.renders).toBe(bucket.start.startsWith(today) ? 1 : 0)
    }
    const account = (await t.inject({ method: 'GET', url: '/v1/account', key: fresh.liveKey })).json()
    expect(account.usage.renders).toBe(body.total)

    // a test key reads the same workspace usage; its own render stays uncounted
    const byKey = (await usage('group_by=key_id', fresh.testKey)).json()
    expect(byKey.total).toBe(1)
    expect(byKey.groups).toEqual([{ key: account.key.id, renders: 1 }])
  })

  it('zero-fills day buckets and counts a to date as its whole day', async () => {
    const body = (await usage('from=2026-03-01&to=2026-03-03')).json()
    expect(body).toMatchObject({ from: '2026-03-01T00:00:00.000Z', to: '2026-03-04T00:00:00.000Z', total: 3 })
    expect(body.series).toEqual([
      { start: '2026-03-01T00:00:00.000Z', end: '2026-03-02T00:00:00.000Z', renders: 2 },
      { start: '2026-03-02T00:00:00.000Z', end: '2026-03-03T00:00:00.000Z', renders: 0 },
      { start: '2026-03-03T00:00:00.000Z', end: '2026-03-04T00:00:00.000Z', renders: 1 },
    ])
  })

  it('leaves out other workspaces and test renders', async () => {
    // the other workspace's render and a test render both sit on 2026-03-02
    const body = (await usage('from=2026-03-02&to=2026-03-02&granularity=hour')).json()
    expect(body.total).toBe(0)
    expect(body.series).toHaveLength(24)
    expect(body.series.every((b: { renders: number }) => b.renders === 0)).toBe(true)
    const theirs = (await usage('from=2026-03-02&to=2026-03-02', other.liveKey)).json()
    expect(theirs.series).toEqual([
      { start: '2026-03-02T00:00:00.000Z', end: '2026-03-03T00:00:00.000Z', renders: 1 },
    ])
  })

  it('ends before a to date-time, which is exclusive, and cuts the last bucket there', async () => {
    const noon = (await usage('from=2026-03-01&to=2026-03-03T12:00:00Z')).json()
    expect(noon).toMatchObject({ to: '2026-03-03T12:00:00.000Z', total: 2 })
    expect(noon.series.at(-1)).toEqual({
      start: '2026-03-03T00:00:00.000Z',
      end: '2026-03-03T12:00:00.000Z',
      renders: 0,
    })
    // the same instant with an offset, and with the `+` left unencoded (a space)
    for (const to of ['2026-03-03T13:00:00%2B01:00', '2026-03-03T13:00:00+01:00']) {
      expect((await usage(`from=2026-03-01&to=${to}`)).json()).toMatchObject({
        to: '2026-03-03T12:00:00.000Z',
        total: 2,
      })
    }
    const midnight = (await usage('from=2026-03-01&to=2026-03-04T00:00:00.000Z')).json()
    expect(midnight.total).toBe(3)
    expect(midnight.series).toHaveLength(3)
    const dated = (await usage('from=2026-03-01&to=2026-03-04')).json()
    expect(dated.total).toBe(4)
  })

  it('zero-fills hour buckets and cuts the first one at a from inside an hour', async () => {
    const body = (await usage('from=2026-03-03T10:00:00Z&to=2026-03-03T14:00:00Z&granularity=hour')).json()
    expect(body).toMatchObject({ granularity: 'hour', total: 1 })
    expect(body.series).toEqual([
      { start: '2026-03-03T10:00:00.000Z', end: '2026-03-03T11:00:00.000Z', renders: 0 },
      { start: '2026-03-03T11:00:00.000Z', end: '2026-03-03T12:00:00.000Z', renders: 0 },
      { start: '2026-03-03T12:00:00.000Z', end: '2026-03-03T13:00:00.000Z', renders: 1 },
      { start: '2026-03-03T13:00:00.000Z', end: '2026-03-03T14:00:00.000Z', renders: 0 },
    ])
    const cut = (await usage('from=2026-03-01T23:30:00Z&to=2026-03-02T01:00:00Z&granularity=hour')).json()
    expect(cut.series).toEqual([
      { start: '2026-03-01T23:30:00.000Z', end: '2026-03-02T00:00:00.000Z', renders: 1 },
      { start: '2026-03-02T00:00:00.000Z', end: '2026-03-02T01:00:00.000Z', renders: 0 },
    ])
  })

  it.each([
    [
      'key_id',
      [
        ['key_a', 2, 1, 1],
        ['key_b', 1, 1, 0],
      ],
    ],
    [
      'kind',
      [
        ['einvoice', 1, 1, 0],
        ['render', 2, 1, 1],
      ],
    ],
    [
      'source',
      [
        ['api', 2, 2, 0],
        ['batch', 1, 0, 1],
      ],
    ],
    [
      'template_id',
      [
        ['tpl_a', 2, 1, 1],
        [null, 1, 1, 0],
      ],
    ],
    ['region', [['eu', 3, 2, 1]]],
  ] as const)('groups by %s, every group in every bucket', async (groupBy, expected) => {
    const body = (await usage(`from=2026-04-01&to=2026-04-02&group_by=${groupBy}`)).json()
    expect(body).toMatchObject({ group_by: groupBy, total: 3 })
    expect(body.groups).toEqual(expected.map(([key, renders]) => ({ key, renders })))
    expect(body.series).toEqual([
      {
        start: '2026-04-01T00:00:00.000Z',
        end: '2026-04-02T00:00:00.000Z',
        renders: 2,
        groups: expected.map(([key, , day1]) => ({ key, renders: day1 })),
      },
      {
        start: '2026-04-02T00:00:00.000Z',
        end: '2026-04-03T00:00:00.000Z',
        renders: 1,
        groups: expected.map(([key, , , day2]) => ({ key, renders: day2 })),
      },
    ])
  })

  it('lists no groups when the window has no renders', async () => {
    const body = (await usage('from=2026-05-01&to=2026-05-02&group_by=kind')).json()
    expect(body.groups).toEqual([])
    expect(body.series.map((b: { groups: unknown[] }) => b.groups)).toEqual([[], []])
  })

  it.each([
    ['from=2026-13-01', '/from'],
    ['from=2026-02-30', '/from'],
    ['from=yesterday', '/from'],
    ['from=0050-01-01', '/from'],
    ['from=2026-03-01T10Z', '/from'],
    ['from=2026-03-01T24:00:00Z', '/from'],
    ['from=2026-03-01&to=2026-03-01T10:00:00%2B25:00', '/to'],
    ['to=2026-3-1', '/to'],
    ['to=', '/to'],
  ])('answers 400 for %s at %s', async (query, path) => {
    expect(problems(await usage(query))).toEqual([
      { path, code: 'format', message: TIME_MESSAGE, in: 'query' },
    ])
  })

  it('answers 400 for an unknown granularity or group_by, each at its parameter', async () => {
    expect(problems(await usage('granularity=week'))).toEqual([
      { path: '/granularity', code: 'enum', message: 'must be one of: day, hour', in: 'query' },
    ])
    expect(problems(await usage('group_by=plan'))).toEqual([
      {
        path: '/group_by',
        code: 'enum',
        message: 'must be one of: key_id, kind, region, source, template_id',
        in: 'query',
      },
    ])
    expect(problems(await usage('group_by=kind&group_by=source'))[0]).toMatchObject({
      path: '/group_by',
      in: 'query',
    })
    expect(problems(await usage('colour=red'))).toEqual([
      { path: '/colour', code: 'unknown_field', message: 'is not a known field', in: 'query' },
    ])
  })

  it('answers 400 when from is not before to', async () => {
    expect(problems(await usage('from=2026-03-05&to=2026-03-01'))).toEqual([
      { path: '/to', code: 'range', message: 'must be after from', in: 'query' },
    ])
    expect(problems(await usage('from=2026-03-05T10:00:00Z&to=2026-03-05T10:00:00Z'))).toEqual([
      { path: '/to', code: 'range', message: 'must be after from', in: 'query' },
    ])
    const [late] = problems(await usage('from=2999-01-01'))
    expect(late).toMatchObject({ path: '/from', code: 'range', in: 'query' })
    expect(late.message).toBe(
      `must be before the default to (${cycleByDay(new Date(), DEFAULT_CYCLE_START_DAY).end}, the end of the current cycle)`,
    )
  })

  it('answers 400 for a window longer than 366 days of days or 31 days of hours', async () => {
    expect((await usage('from=2024-01-01&to=2024-12-31')).json().series).toHaveLength(366)
    expect(problems(await usage('from=2024-01-01&to=2025-01-01'))).toEqual([
      {
        path: '/to',
        code: 'range',
        message:
          'from 2024-01-01T00:00:00.000Z to 2025-01-02T00:00:00.000Z is longer than 366 days, the most granularity day allows',
        in: 'query',
      },
    ])
    expect((await usage('from=2026-03-01&to=2026-03-31&granularity=hour')).json().series).toHaveLength(744)
    expect(problems(await usage('from=2026-03-01&to=2026-04-01&granularity=hour'))).toEqual([
      expect.objectContaining({ path: '/to', code: 'range', in: 'query' }),
    ])
    expect(problems(await usage('from=2020-01-01'))).toEqual([
      expect.objectContaining({ path: '/from', code: 'range', in: 'query' }),
    ])
  })

  it('answers 401 without a key and 403 insufficient_scope without account:read', async () => {
    const anonymous = await t.inject({ method: 'GET', url: '/v1/usage' })
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.json().code).toBe('authentication_required')
    const { key } = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'live',
      scopes: ['renders:read'],
    })
    const res = await usage('', key)
    expect(res.statusCode).toBe(403)
    expect(res.json().code).toBe('insufficient_scope')
    const { key: allowed } = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'live',
      scopes: ['account:read'],
    })
    expect((await usage('', allowed)).statusCode).toBe(200)
  })
})
