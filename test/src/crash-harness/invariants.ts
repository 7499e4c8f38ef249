import { type Db, openDatabase } from '../../../core/src/db/database.ts'
import { fromJson } from '../../../core/src/db/json-columns.ts'
import { FINISHED_STATUSES, type RenderStatus } from '../../../core/src/renders/render.ts'

// What must hold after the crashes, read from the installation's own database (and the webhook
// receiver): every accepted render reached a final state once (one final event each), is billed
// at most once and only when it succeeded, every render event reached the endpoint, and billing's
// reservations (decision 0097) are held by exactly the live renders still queued or running.

const FINAL_EVENTS = ['render.succeeded', 'render.failed']

export interface CrashFigures {
  /** renders the client got a 201/202 for */
  accepted: number
  /** of them, in a final state */
  final: number
  /** of them, not final when the wait ended, or failed because the platform lost them */
  lost: number
  /** of them, with more than one final event */
  finalTwice: number
  billedTwice: number
  /** billed but not succeeded (a failed render must cost nothing) */
  billedNotSucceeded: number
  /** succeeded live renders without their billing row */
  succeededNotBilled: number
  /** succeeded live renders of the workspace, answered or not: what its usage must show */
  succeededLive: number
  eventsExpected: number
  /** distinct expected events the receiver got, signed with the endpoint's secret */
  eventsDelivered: number
  /** deliveries beyond the first of an event (at-least-once allows them; for the record) */
  duplicateDeliveries: number
  /** renders in the database the client never heard of (the API died before it answered) */
  unansweredRenders: number
  /** of them, not final when the wait ended */
  unansweredStuck: number
  /** of those, with no job recorded: the API died between storing the render and queueing it */
  unansweredWithoutJob: number
  byStatus: Partial<Record<RenderStatus, number>>
  /** open billing reservations of the workspace */
  reservations: number
  /**
   * reservations held by no live render still queued or running, plus such renders holding none
   * (every live render of the harness is billable): a crash leaked or lost a reservation
   */
  reservationsAstray: number
  /** the cycles' `reserved` counters minus the open reservations: 0 when the counters are exact */
  reservedCounterDrift: number
  /** the ids behind a non-zero lost/finalTwice count, for the failure message */
  examples: string[]
}

export interface Delivered {
  /** the `webhook-id` header of each verified delivery, in arrival order */
  eventIds(): string[]
}

export function openInstallationDb(env: Record<string, string>): Db {
  const dataDir = env.DOCSVC_DATA_DIR as string
  return openDatabase({
    databaseUrl: env.DOCSVC_DATABASE_URL ?? '',
    sqlitePath: `${dataDir}/docsvc.sqlite`,
    pgPoolSize: 2,
  })
}

export async function readFigures(
  db: Db,
  workspaceId: string,
  accepted: readonly string[],
  delivered: Delivered,
): Promise<CrashFigures> {
  const renders = await db.kysely
    .selectFrom('renders')
    .select(['id', 'status', 'error', 'test', 'job_id'])
    .where('workspace_id', '=', workspaceId)
    .execute()
  const billed = await db.kysely
    .selectFrom('billed_renders')
    .select(['render_id'])
    .where('workspace_id', '=', workspaceId)
    .execute()
  const events = await db.kysely
    .selectFrom('events')
    .select(['id', 'type', 'data'])
    .where('workspace_id', '=', workspaceId)
    .where('type', 'in', FINAL_EVENTS)
    .execute()

  const byId = new Map(renders.map((r) => [r.id, r]))
  const billedCount = countBy(billed.map((b) => b.render_id))
  const finalEvents = countBy(
    events.map((e) => fromJson<{ object?: { id?: string } }>(e.data, {}).object?.id ?? ''),
  )
  const acceptedSet = new Set(accepted)
  const figures: CrashFigures = {
    accepted: acceptedSet.size,
    final: 0,
    lost: 0,
    finalTwice: 0,
    billedTwice: 0,
    billedNotSucceeded: 0,
    succeededNotBilled: 0,
    succeededLive: renders.filter((r) => r.status === 'succeeded' && !r.test).length,
    eventsExpected: events.length,
    eventsDelivered: 0,
    duplicateDeliveries: 0,
    unansweredRenders: 0,
    unansweredStuck: 0,
    unansweredWithoutJob: 0,
    byStatus: {},
    examples: [],
    ...(await reservationFigures(db, workspaceId)),
  }
  for (const id of acceptedSet) {
    const render = byId.get(id)
    const status = render?.status as RenderStatus | undefined
    if (status) figures.byStatus[status] = (figures.byStatus[status] ?? 0) + 1
    const final = status !== undefined && FINISHED_STATUSES.includes(status)
    const lostByPlatform = fromJson<{ code?: string } | null>(render?.error, null)?.code === 'render_lost'
    if (final) figures.final++
    if (!final || lostByPlatform) {
      figures.lost++
      figures.examples.push(`${id}: ${status ?? 'missing'}${lostByPlatform ? ' (render_lost)' : ''}`)
    }
    if ((finalEvents.get(id) ?? 0) > 1) {
      figures.finalTwice++
      figures.examples.push(`${id}: ${finalEvents.get(id)} final events`)
    }
    const bills = billedCount.get(id) ?? 0
    if (bills > 1) figures.billedTwice++
    if (bills > 0 && status !== 'succeeded') figures.billedNotSucceeded++
    if (bills === 0 && status === 'succeeded' && !render?.test) figures.succeededNotBilled++
  }
  for (const render of renders) {
    if (acceptedSet.has(render.id)) continue
    figures.unansweredRenders++
    if (FINISHED_STATUSES.includes(render.status as RenderStatus)) continue
    figures.unansweredStuck++
    if (render.job_id === null) figures.unansweredWithoutJob++
  }
  const expected = new Set(events.map((e) => e.id))
  const arrivals = countBy(delivered.eventIds().filter((id) => expected.has(id)))
  figures.eventsDelivered = arrivals.size
  for (const n of arrivals.values()) figures.duplicateDeliveries += n - 1
  const missing = [...expected].filter((id) => !arrivals.has(id))
  if (missing.length > 0) figures.examples.push(...(await deliveryStates(db, missing.slice(0, 10))))
  return figures
}

/**
 * The reservations against the live renders in flight and the cycles' counters, read in one
 * snapshot (PostgreSQL repeatable read; a SQLite transaction reads one), so a render finishing
 * between the reads is not taken for a leak.
 */
async function reservationFigures(
  db: Db,
  workspaceId: string,
): Promise<Pick<CrashFigures, 'reservations' | 'reservationsAstray' | 'reservedCounterDrift'>> {
  const run =
    db.dialect === 'postgres'
      ? db.kysely.transaction().setIsolationLevel('repeatable read')
      : db.kysely.transaction()
  return run.execute(async (trx) => {
    const held = await trx
      .selectFrom('billing_reservations')
      .select('unit_id')
      .where('workspace_id', '=', workspaceId)
      .execute()
    const inFlight = await trx
      .selectFrom('renders')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('test', '=', 0)
      .where('status', 'in', ['queued', 'processing'])
      .execute()
    const counters = await trx
      .selectFrom('billing_cycles')
      .select((eb) => eb.fn.sum<number | string | null>('reserved').as('reserved'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst()
    const heldIds = new Set(held.map((r) => r.unit_id))
    const flying = new Set(inFlight.map((r) => r.id))
    const astray =
      [...heldIds].filter((id) => !flying.has(id)).length +
      [...flying].filter((id) => !heldIds.has(id)).length
    return {
      reservations: heldIds.size,
      reservationsAstray: astray,
      reservedCounterDrift: Number(counters?.reserved ?? 0) - heldIds.size,
    }
  })
}

/** Accepted renders all final and every final event delivered: the installation has settled. */
export function settled(f: CrashFigures): boolean {
  return f.final === f.accepted && f.eventsDelivered === f.eventsExpected
}

/** Where the deliveries of events the receiver never got stand: why they did not arrive. */
async function deliveryStates(db: Db, eventIds: string[]): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('webhook_deliveries')
    .select(['event_id', 'status', 'attempt', 'due_at', 'last_attempt_at', 'error'])
    .where('event_id', 'in', eventIds)
    .execute()
  const seen = new Set(rows.map((r) => r.event_id))
  return [
    ...rows.map(
      (r) =>
        `event ${r.event_id}: delivery ${r.status}, attempt ${r.attempt}, due ${r.due_at}, last ${r.last_attempt_at}${r.error ? `, ${r.error}` : ''}`,
    ),
    ...eventIds.filter((id) => !seen.has(id)).map((id) => `event ${id}: no delivery yet (not dispatched)`),
  ]
}

function countBy(keys: string[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1)
  return counts
}

/** Polls `read` until `done` holds or `timeoutMs` passes; the last figures either way. */
export async function waitUntilSettled(
  read: () => Promise<CrashFigures>,
  timeoutMs: number,
  done: (f: CrashFigures) => boolean = settled,
): Promise<{ figures: CrashFigures; settledAfterMs: number | null }> {
  const started = Date.now()
  for (;;) {
    const figures = await read()
    if (done(figures)) return { figures, settledAfterMs: Date.now() - started }
    if (Date.now() - started > timeoutMs) return { figures, settledAfterMs: null }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}
