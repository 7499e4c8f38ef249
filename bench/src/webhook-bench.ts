// node bench/src/webhook-bench.ts: 10,000 events fanned out to 3 endpoints on a local receiver,
// on SQLite and PostgreSQL; prints deliveries per second and p50/p95 from event to receipt.
// WEBHOOK_BENCH_EVENTS changes the count. Figures, not a test. The kernel (API + worker) runs in
// this process, next to the receiver; PostgreSQL at DOCSVC_TEST_DATABASE_URL (127.0.0.1 default).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { cpus } from 'node:os'
import { startTestKernel, TEST_DIALECTS, type TestDialect } from '@docsvc/core/testing'

const EVENTS = Number(process.env.WEBHOOK_BENCH_EVENTS ?? 10_000)
const ENDPOINTS = 3
const EMIT_BATCH = 100

interface Figures {
  dialect: TestDialect
  deliveries: number
  seconds: number
  perSecond: number
  p50: number
  p95: number
}

async function run(dialect: TestDialect): Promise<Figures> {
  const emittedAt = new Map<string, number>()
  const latencies: number[] = []
  let done: () => void = () => {}
  const allReceived = new Promise<void>((resolve) => {
    done = resolve
  })
  const receiver = createServer((req, res) => {
    const id = req.headers['webhook-id']
    req.resume()
    req.on('end', () => {
      const sent = typeof id === 'string' ? emittedAt.get(id) : undefined
      if (sent !== undefined) latencies.push(performance.now() - sent)
      res.writeHead(204).end()
      if (latencies.length === EVENTS * ENDPOINTS) done()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
  const t = await startTestKernel({
    dialect,
    env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32' },
    roles: ['api', 'worker'],
  })
  try {
    const ws = await t.createWorkspace()
    for (let i = 0; i < ENDPOINTS; i++) {
      const res = await t.inject({
        method: 'POST',
        url: '/v1/webhook-endpoints',
        key: ws.testKey,
        payload: { url: `${base}/hook/${i}`, events: ['batch.progress'] },
      })
      if (res.statusCode !== 201) throw new Error(`endpoint: ${res.statusCode} ${res.body}`)
    }
    const { db } = t.kernel
    const { eventOutbox } = t.kernel.container.cradle
    const started = performance.now()
    for (let i = 0; i < EVENTS; i += EMIT_BATCH) {
      await db.kysely.transaction().execute(async (trx) => {
        for (let j = i; j < Math.min(EVENTS, i + EMIT_BATCH); j++) {
          const event = await eventOutbox.emit(trx, {
            workspaceId: ws.workspace.id,
            type: 'batch.progress',
            test: true,
            data: { object: { id: `bat_${j}`, object: 'batch', progress: j } },
          })
          emittedAt.set(event.id, performance.now())
        }
      })
    }
    await allReceived
    const seconds = (performance.now() - started) / 1000
    latencies.sort((a, b) => a - b)
    const at = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)] ?? 0
    return {
      dialect,
      deliveries: latencies.length,
      seconds,
      perSecond: latencies.length / seconds,
      p50: at(0.5),
      p95: at(0.95),
    }
  } finally {
    await t.close()
    receiver.closeAllConnections()
    receiver.close()
  }
}

console.log(`webhook fan-out: ${EVENTS} events x ${ENDPOINTS} endpoints, ${cpus().length} CPUs`)
for (const dialect of TEST_DIALECTS) {
  const f = await run(dialect)
  console.log(
    `${f.dialect.padEnd(8)} ${f.deliveries} deliveries in ${f.seconds.toFixed(1)} s: ${f.perSecond.toFixed(0)}/s; event to receipt p50 ${(f.p50 / 1000).toFixed(2)} s, p95 ${(f.p95 / 1000).toFixed(2)} s`,
  )
}
