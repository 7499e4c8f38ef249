import path from 'node:path'
import SQLite from 'better-sqlite3'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../../core/src/renders/fake-render-plugins.fixture.ts'
import { startTestKernel, type TestKernel } from '../../core/src/testing/index.ts'
import { WebhookReceiver, waitFor } from './webhooks-receiver.ts'

// A worker killed (kill -9) after it took a delivery's job, before the attempt started: the job
// stays taken until its lease ends, and the delivery itself is held for the 10 minutes a queued
// job may wait. The queue must give the job to another worker once the lease ends, so the event
// still goes out in seconds. The dead worker is stood in for by its row: taken, lease over.

const LOCAL = { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32,::1/128' }

let api: TestKernel
let worker: TestKernel | undefined
let receiver: WebhookReceiver
let base: string

beforeAll(async () => {
  receiver = new WebhookReceiver()
  base = await receiver.start()
  api = await startTestKernel({ env: LOCAL, builtins: FAKE_RENDER_BUILTINS, roles: ['api'] })
})
afterAll(async () => {
  await worker?.close()
  await api?.close()
  await receiver?.close()
})

it('a delivery whose job died with the worker that took it is sent by another worker after the lease', async () => {
  const ws = await api.createWorkspace()
  const created = await api.inject({
    method: 'POST',
    url: '/v1/webhook-endpoints',
    key: ws.testKey,
    payload: { url: `${base}/ok/lost`, events: ['batch.completed'] },
  })
  expect(created.statusCode).toBe(201)
  const { webhookDispatcher, webhookScheduler, eventOutbox } = api.kernel.container.cradle
  const event = await eventOutbox.emit(api.kernel.db, {
    workspaceId: ws.workspace.id,
    type: 'batch.completed',
    test: true,
    data: { object: { id: 'bat_lost' } },
  })
  // the API process has no worker: the delivery is made and its job queued, nobody runs it yet
  expect(await webhookDispatcher.dispatchPending()).toBe(1)
  expect(await webhookScheduler.sendDue()).toBe(1)

  // a worker took the job and was killed: its lease has run out, no attempt was made
  const file = new SQLite(path.join(api.dataDir, 'docsvc.sqlite'))
  try {
    const taken = file
      .prepare(`UPDATE docsvc_queue_job SET state = 'active', attempt = attempt + 1,
        lease_owner = 'killed-worker', lease_until = ? WHERE name = 'webhook.deliver' AND state = 'queued'`)
      .run(Date.now() - 1)
    expect(taken.changes).toBe(1)
  } finally {
    file.close()
  }

  worker = await startTestKernel({
    env: { ...LOCAL, DOCSVC_DATA_DIR: api.dataDir },
    builtins: FAKE_RENDER_BUILTINS,
    roles: ['worker'],
  })
  const got = await waitFor(() => receiver.on('/ok/lost')[0], 'the delivery of the lost job', 15_000)
  expect(got.headers['webhook-id']).toBe(event.id)
})

it('a delivery whose job never reached the queue is due again after the short send lease, not the queued hold', async () => {
  // no worker: the job the second pass queues stays queued, so its delivery keeps the queued hold
  await worker?.close()
  worker = undefined
  const ws = await api.createWorkspace()
  const created = await api.inject({
    method: 'POST',
    url: '/v1/webhook-endpoints',
    key: ws.testKey,
    payload: { url: `${base}/ok/unsent`, events: ['batch.completed'] },
  })
  expect(created.statusCode).toBe(201)
  const { webhookDispatcher, webhookScheduler, webhookSettings, eventOutbox, queue, db } =
    api.kernel.container.cradle
  await eventOutbox.emit(api.kernel.db, {
    workspaceId: ws.workspace.id,
    type: 'batch.completed',
    test: true,
    data: { object: { id: 'bat_unsent' } },
  })
  expect(await webhookDispatcher.dispatchPending()).toBe(1)
  const dueAt = async () =>
    Date.parse(
      (
        await db.kysely
          .selectFrom('webhook_deliveries')
          .select('due_at')
          .where('endpoint_id', '=', created.json().id)
          .executeTakeFirstOrThrow()
      ).due_at ?? '',
    )
  // the send fails (as when the process dies between the lease and the send)
  const send = queue.send.bind(queue)
  queue.send = async () => {
    throw new Error('queue unreachable')
  }
  const leasedAt = Date.now()
  try {
    expect(await webhookScheduler.sendDue()).toBe(1)
  } finally {
    queue.send = send
  }
  const held = (await dueAt()) - leasedAt
  expect(held).toBeGreaterThan(0)
  expect(held).toBeLessThanOrEqual(31_000)
  // once that lease has passed, the next pass sends it and holds it for the queued wait
  const now = webhookSettings.now
  webhookSettings.now = () => new Date(Date.now() + 31_000)
  try {
    expect(await webhookScheduler.sendDue()).toBe(1)
  } finally {
    webhookSettings.now = now
  }
  expect((await dueAt()) - Date.now()).toBeGreaterThan(webhookSettings.requeueAfterMs - 60_000)
})
