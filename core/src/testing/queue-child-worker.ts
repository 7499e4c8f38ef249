// A queue worker in its own process, for the queue contract's process tests:
//   node queue-child-worker.ts '<ChildWorkerSpec as JSON>'
// It prints one JSON line per event on stdout: ready, start (job id, attempt, time), done.
// `hang` never finishes a job (a worker stuck or about to be killed); `serve` finishes each job
// after `data.ms` milliseconds.

import type { QueueBackend } from '../sdk/queue-contracts.ts'

export interface ChildWorkerSpec {
  /** absolute path of the module that builds the backend */
  module: string
  /** its export: (options) => QueueBackend */
  exportName: string
  options: Record<string, unknown>
  queue: string
  concurrency: number
  mode: 'hang' | 'serve'
}

const spec = JSON.parse(process.argv[2] ?? '{}') as ChildWorkerSpec
const mod = (await import(spec.module)) as Record<string, (options: unknown) => QueueBackend>
const create = mod[spec.exportName]
if (!create) throw new Error(`${spec.module} has no export ${spec.exportName}`)
const backend = create(spec.options)

const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`)
const now = () => performance.timeOrigin + performance.now()

await backend.work<{ ms?: number }>(spec.queue, { concurrency: spec.concurrency }, async (job) => {
  say({ event: 'start', id: job.id, attempt: job.attempt, data: job.data, at: now(), pid: process.pid })
  if (spec.mode === 'hang') await new Promise(() => {})
  await new Promise((resolve) => setTimeout(resolve, job.data.ms ?? 0))
  say({ event: 'done', id: job.id, attempt: job.attempt })
})
say({ event: 'ready', pid: process.pid })

process.on('SIGTERM', () => {
  void backend.stop(1000).finally(() => process.exit(0))
})
