import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../../core/src/renders/fake-render-plugins.fixture.ts'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'
import { WebhookReceiver, waitFor } from './webhooks-receiver.ts'

// DOCSVC_WEBHOOK_RETRY_SCHEDULE is the schedule deliveries follow: its delays and its length.
describe('a configured webhook retry schedule', () => {
  let t: TestKernel
  let ws: TestWorkspace
  let receiver: WebhookReceiver
  let base: string
  let clock = Date.parse('2026-11-22T12:00:00Z')

  beforeAll(async () => {
    receiver = new WebhookReceiver()
    base = await receiver.start()
    t = await startTestKernel({
      dialect: 'sqlite',
      env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32,::1/128', DOCSVC_WEBHOOK_RETRY_SCHEDULE: '2s,90m' },
      builtins: FAKE_RENDER_BUILTINS,
      roles: ['api', 'worker'],
    })
    ws = await t.createWorkspace()
    Object.assign(t.kernel.container.cradle.webhookSettings, {
      pollMs: 20,
      now: () => new Date(clock),
      random: () => 0.5, // no jitter: the schedule is exact
    })
  })
  afterAll(async () => {
    await t?.close()
    await receiver?.close()
  })

  it('waits 2 s, then 90 min, and gives up after the third attempt', async () => {
    const created = await t.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      key: ws.testKey,
      payload: { url: `${base}/fail/configured`, events: ['batch.completed'] },
    })
    expect(created.statusCode).toBe(201)
    const endpointId = created.json().id as string
    await t.kernel.container.cradle.eventOutbox.emit(t.kernel.db, {
      workspaceId: ws.workspace.id,
      type: 'batch.completed',
      test: true,
      data: { object: { id: 'bat_x' } },
    })
    const logged = (attempt: number) =>
      waitFor(async () => {
        const res = await t.inject({
          method: 'GET',
          url: `/v1/webhook-deliveries?endpoint_id=${endpointId}`,
          key: ws.testKey,
        })
        const list = res.json().data as { attempt: number; status: string; next_attempt_at: string | null }[]
        return list.find((d) => d.attempt === attempt && d.status !== 'pending')
      }, `attempt ${attempt} logged`)

    const start = clock
    const first = await logged(1)
    expect(first).toMatchObject({ status: 'failed', next_attempt_at: new Date(start + 2_000).toISOString() })
    clock = start + 2_000
    const second = await logged(2)
    expect(second).toMatchObject({
      status: 'failed',
      next_attempt_at: new Date(start + 2_000 + 90 * 60_000).toISOString(),
    })
    clock = start + 2_000 + 90 * 60_000
    expect(await logged(3)).toMatchObject({ status: 'exhausted', next_attempt_at: null })
    expect(receiver.on('/fail/configured')).toHaveLength(3)
  })
})
