import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'
import type { EventOutbox } from './event-outbox.ts'
import { EVENT_TYPES, isEventType } from './event-types.ts'

describe.each(TEST_DIALECTS)('EventOutbox on %s', (dialect) => {
  let t: TestKernel
  let outbox: EventOutbox

  beforeAll(async () => {
    t = await startTestKernel({ dialect, env: { DOCSVC_REGION: 'eu' } })
    outbox = t.kernel.container.cradle.eventOutbox
  })
  afterAll(() => t?.close())
  beforeEach(async () => {
    await t.kernel.db.kysely.deleteFrom('events').execute()
  })

  it('keeps an event emitted in a committed transaction, as the SPEC 2.14 envelope', async () => {
    const { db } = t.kernel
    const emitted = await db.kysely.transaction().execute(async (trx) => {
      // the state change and its event share the transaction
      await trx
        .insertInto('rate_limit_counters')
        .values({ bucket: `b-${dialect}`, count: 1, expires_at: '2999-01-01T00:00:00.000Z' })
        .execute()
      return outbox.emit(trx, {
        workspaceId: 'ws_one',
        type: 'render.succeeded',
        test: false,
        data: { object: { id: 'rnd_1', object: 'render', status: 'succeeded' } },
      })
    })
    expect(emitted.id).toMatch(/^evt_[0-9a-z]{26}$/)
    expect(Object.keys(emitted).sort()).toEqual([
      'created_at',
      'data',
      'id',
      'region',
      'type',
      'workspace_id',
    ])
    expect(emitted).toMatchObject({ type: 'render.succeeded', workspace_id: 'ws_one', region: 'eu' })
    expect(new Date(emitted.created_at).toISOString()).toBe(emitted.created_at)
    expect(await outbox.pending(10)).toEqual([emitted])
  })

  it('keeps nothing of a transaction that rolled back', async () => {
    const { db } = t.kernel
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await outbox.emit(trx, { workspaceId: 'ws_one', type: 'render.failed', test: false, data: {} })
        throw new Error('the state change failed')
      }),
    ).rejects.toThrow('the state change failed')
    expect(await outbox.pending(10)).toEqual([])
  })

  it('marks test events with test: true, and only them', async () => {
    const testEvent = await outbox.emit(t.kernel.db, {
      workspaceId: 'ws_one',
      type: 'batch.completed',
      test: true,
      data: { object: { id: 'bat_1' } },
    })
    expect(testEvent.test).toBe(true)
    const pending = await outbox.pending(10)
    expect(pending).toEqual([testEvent])
    expect(pending[0]?.test).toBe(true)
  })

  it('hands out pending events oldest first, up to the limit, until they are marked dispatched', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      const e = await outbox.emit(t.kernel.db, {
        workspaceId: 'ws_two',
        type: 'batch.progress',
        test: false,
        data: { i },
      })
      ids.push(e.id)
    }
    expect((await outbox.pending(3)).map((e) => e.id)).toEqual(ids.slice(0, 3))
    expect((await outbox.pending(3)).map((e) => e.data)).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }])
    expect(await outbox.markDispatched(ids.slice(0, 2))).toBe(2)
    expect((await outbox.pending(10)).map((e) => e.id)).toEqual(ids.slice(2))
    // marking again changes nothing, and an empty list touches no row
    expect(await outbox.markDispatched(ids.slice(0, 2))).toBe(0)
    expect(await outbox.markDispatched([])).toBe(0)
    expect(await outbox.markDispatched(ids)).toBe(3)
    expect(await outbox.pending(10)).toEqual([])
    const rows = await t.kernel.db.kysely.selectFrom('events').select(['id', 'dispatched_at']).execute()
    expect(rows).toHaveLength(5)
    for (const row of rows) expect(row.dispatched_at).toMatch(/^\d{4}-\d\d-\d\dT/)
  })

  it('still has a committed, unsent event for the next process on the same database', async () => {
    const emitted = await t.kernel.db.kysely
      .transaction()
      .execute((trx) =>
        outbox.emit(trx, { workspaceId: 'ws_three', type: 'render.expired', test: false, data: {} }),
      )
    // no dispatch happened; another process opens the same database
    const next = await startTestKernel({
      dialect,
      env: { DOCSVC_DATA_DIR: t.dataDir },
      ...(t.pgSchema ? { pgSchema: t.pgSchema } : {}),
    })
    try {
      expect(await next.kernel.container.cradle.eventOutbox.pending(10)).toEqual([emitted])
    } finally {
      await next.close()
    }
  })

  it('claims pending events inside a transaction, once, and not when the transaction rolls back', async () => {
    const a = await outbox.emit(t.kernel.db, {
      workspaceId: 'ws_four',
      type: 'batch.progress',
      test: false,
      data: {},
    })
    const b = await outbox.emit(t.kernel.db, {
      workspaceId: 'ws_four',
      type: 'batch.progress',
      test: false,
      data: {},
    })
    await expect(
      t.kernel.db.kysely.transaction().execute(async (trx) => {
        expect((await outbox.claimPending(trx, 10)).map((e) => e.id)).toEqual([a.id, b.id])
        throw new Error('the deliveries could not be written')
      }),
    ).rejects.toThrow('could not be written')
    expect((await outbox.pending(10)).map((e) => e.id)).toEqual([a.id, b.id])
    const claimed = await t.kernel.db.kysely.transaction().execute((trx) => outbox.claimPending(trx, 1))
    expect(claimed).toEqual([a])
    const rest = await t.kernel.db.kysely.transaction().execute((trx) => outbox.claimPending(trx, 10))
    expect(rest.map((e) => e.id)).toEqual([b.id])
    expect(await t.kernel.db.kysely.transaction().execute((trx) => outbox.claimPending(trx, 10))).toEqual([])
    // dispatched events past the retention go; undispatched ones stay whatever their age
    const late = await outbox.emit(t.kernel.db, {
      workspaceId: 'ws_four',
      type: 'batch.progress',
      test: false,
      data: {},
    })
    expect(await outbox.pruneDispatched(new Date(Date.now() + 60_000))).toBe(2)
    expect((await outbox.pending(10)).map((e) => e.id)).toEqual([late.id])
  })

  it('knows the event types of SPEC 6.1', () => {
    expect(EVENT_TYPES).toHaveLength(14)
    expect(isEventType('email.complained')).toBe(true)
    expect(isEventType('render.started')).toBe(false)
  })
})
