import { type ChildProcess, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Job, JobOptions, QueueBackend } from '../sdk/queue-contracts.ts'
import type { ChildWorkerSpec } from './queue-child-worker.ts'

// The one suite every queue backend passes (DESIGN.md §8), on a real store: ordering, fair turns
// between groups and their limits, the concurrency bound, exactly-once across instances and processes, cancel, retries, leases, stop,
// and a worker process killed mid-job. Latencies are printed, never asserted.

export interface QueueContractStore {
  /** a new backend on this store (the same SQLite file, the same PostgreSQL schema) */
  makeBackend(): QueueBackend
  /** how a child process builds the same backend: `exportName(options)` of `module` */
  child: { module: string; exportName: string; options: Record<string, unknown> }
  close(): Promise<void>
}

const CHILD_SCRIPT = fileURLToPath(new URL('./queue-child-worker.ts', import.meta.url))

let queueCount = 0
const uniqueQueue = () => `q_${Date.now().toString(36)}_${++queueCount}`

const jobOptions = (options: Partial<JobOptions> = {}): JobOptions => ({
  priority: 'normal',
  timeoutSeconds: 30,
  maxAttempts: 1,
  ...options,
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const now = () => performance.timeOrigin + performance.now()

async function waitFor(check: () => boolean, label: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`)
    await sleep(5)
  }
}

/** resolves when the signal aborts; never rejects */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve()
    else signal.addEventListener('abort', () => resolve(), { once: true })
  })

function percentiles(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
  return `p50 ${at(50).toFixed(2)} ms, p95 ${at(95).toFixed(2)} ms, max ${at(100).toFixed(2)} ms (n=${sorted.length})`
}

interface ChildLine {
  event: 'ready' | 'start' | 'done'
  id?: string
  attempt?: number
  at?: number
  pid?: number
  data?: Record<string, unknown>
}

interface ChildWorker {
  process: ChildProcess
  lines: ChildLine[]
  stderr: string[]
}

export function runQueueContract(name: string, openStore: () => Promise<QueueContractStore>): void {
  describe(`queue contract: ${name}`, () => {
    let store: QueueContractStore
    const backends: QueueBackend[] = []
    const children: ChildWorker[] = []

    const backend = () => {
      const made = store.makeBackend()
      backends.push(made)
      return made
    }

    async function spawnWorker(queue: string, mode: ChildWorkerSpec['mode'], concurrency = 1) {
      const spec: ChildWorkerSpec = { ...store.child, queue, concurrency, mode }
      const child = spawn(process.execPath, [CHILD_SCRIPT, JSON.stringify(spec)], {
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      const worker: ChildWorker = { process: child, lines: [], stderr: [] }
      children.push(worker)
      createInterface({ input: child.stdout! }).on('line', (line) => {
        worker.lines.push(JSON.parse(line) as ChildLine)
      })
      child.stderr!.on('data', (chunk: Buffer) => worker.stderr.push(chunk.toString()))
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      await Promise.race([
        waitFor(() => worker.lines.some((line) => line.event === 'ready'), 'a child worker', 20_000),
        exited.then(() => {
          throw new Error(`child worker exited: ${worker.stderr.join('')}`)
        }),
      ])
      return worker
    }

    beforeAll(async () => {
      store = await openStore()
    })

    afterEach(async () => {
      for (const child of children.splice(0)) child.process.kill('SIGKILL')
      await Promise.all(backends.splice(0).map((made) => made.stop(500)))
    })

    afterAll(async () => {
      await store?.close()
    })

    it('runs normal-priority jobs before low ones, first in first out within each', async () => {
      const queue = uniqueQueue()
      const sender = backend()
      for (const [label, priority] of [
        ['low-1', 'low'],
        ['normal-1', 'normal'],
        ['low-2', 'low'],
        ['normal-2', 'normal'],
        ['normal-3', 'normal'],
        ['low-3', 'low'],
      ] as const) {
        await sender.send(queue, { label }, jobOptions({ priority }))
      }
      const seen: string[] = []
      await backend().work<{ label: string }>(queue, { concurrency: 1 }, async (job) => {
        seen.push(job.data.label)
      })
      await waitFor(() => seen.length === 6, 'six jobs')
      expect(seen).toEqual(['normal-1', 'normal-2', 'normal-3', 'low-1', 'low-2', 'low-3'])
    })

    it('never runs more handlers at once than its concurrency', async () => {
      const queue = uniqueQueue()
      const worker = backend()
      let running = 0
      let most = 0
      let started = 0
      let finished = 0
      let open = false
      await worker.work(queue, { concurrency: 3 }, async () => {
        running++
        started++
        most = Math.max(most, running)
        await waitFor(() => open, 'the gate', 20_000)
        running--
        finished++
      })
      for (let i = 0; i < 8; i++) await worker.send(queue, { i }, jobOptions())
      await waitFor(() => started === 3, 'three handlers')
      // jobs are waiting and slots are not: a fourth handler would start at once
      await sleep(300)
      expect(started).toBe(3)
      open = true
      await waitFor(() => finished === 8, 'eight jobs')
      expect(most).toBe(3)
    })

    it('takes turns between groups: a single job waits behind at most one of a 200-job backlog', async () => {
      const queue = uniqueQueue()
      const sender = backend()
      for (let i = 0; i < 200; i++) {
        await sender.send(queue, { label: `a-${i}` }, jobOptions({ group: { key: 'ws_a', limit: 4 } }))
      }
      await sender.send(queue, { label: 'b' }, jobOptions({ group: { key: 'ws_b', limit: 4 } }))
      const seen: string[] = []
      await backend().work<{ label: string }>(queue, { concurrency: 1 }, async (job) => {
        seen.push(job.data.label)
      })
      await waitFor(() => seen.includes('b'), "workspace b's job")
      expect(seen.indexOf('b')).toBeLessThanOrEqual(1)
      // and a's own jobs still run in their order
      expect(seen.filter((label) => label !== 'b').slice(0, 1)).toEqual(['a-0'])
    })

    it("never runs more of a group's jobs at once than its limit, over every backend on the store", async () => {
      const queue = uniqueQueue()
      const [first, second] = [backend(), backend()]
      const running = new Map<string, number>()
      const most = new Map<string, number>()
      const finished: string[] = []
      let open = false
      const handler = async (job: Job<{ group: string; gated: boolean }>) => {
        const { group, gated } = job.data
        running.set(group, (running.get(group) ?? 0) + 1)
        most.set(group, Math.max(most.get(group) ?? 0, running.get(group) ?? 0))
        if (gated) await waitFor(() => open, 'the gate', 20_000)
        else await sleep(5)
        running.set(group, (running.get(group) ?? 1) - 1)
        finished.push(group)
      }
      await first.work(queue, { concurrency: 4 }, handler)
      await second.work(queue, { concurrency: 4 }, handler)
      for (let i = 0; i < 10; i++) {
        await first.send(queue, { group: 'a', gated: true }, jobOptions({ group: { key: 'ws_a', limit: 2 } }))
      }
      await waitFor(() => running.get('a') === 2, "two of a's jobs")
      // slots are free and a's jobs wait: a third would start at once
      await sleep(300)
      expect(most.get('a')).toBe(2)
      // a group at its limit holds up no one else
      for (let i = 0; i < 6; i++) {
        await second.send(
          queue,
          { group: 'b', gated: false },
          jobOptions({ group: { key: 'ws_b', limit: 1 } }),
        )
        await second.send(queue, { group: 'none', gated: false }, jobOptions())
      }
      await waitFor(() => finished.length === 12, "b's jobs and the ungrouped ones")
      open = true
      await waitFor(() => finished.length === 22, 'every job')
      expect(most.get('a')).toBe(2)
      expect(most.get('b')).toBe(1)
    })

    it('stores a job sent twice with one id once', async () => {
      const queue = uniqueQueue()
      const sender = backend()
      const id = '0b7f3a52-7a1e-4c9e-9d55-2f6a1c0e8b41'
      expect(await sender.send(queue, { label: 'first' }, jobOptions({ id }))).toBe(id)
      expect(await sender.send(queue, { label: 'again' }, jobOptions({ id }))).toBe(id)
      const seen: string[] = []
      await backend().work<{ label: string }>(queue, { concurrency: 1 }, async (job) => {
        seen.push(job.data.label)
      })
      await sender.send(queue, { label: 'marker' }, jobOptions())
      await waitFor(() => seen.includes('marker'), 'the marker job')
      await sleep(300)
      expect(seen).toEqual(['first', 'marker'])
    })

    it('hands every job to exactly one of two backends on the same store', async () => {
      const queue = uniqueQueue()
      const [first, second] = [backend(), backend()]
      const handled = new Map<string, string[]>()
      const handler = (who: string) => async (job: Job) => {
        handled.set(job.id, [...(handled.get(job.id) ?? []), who])
        await sleep(10)
      }
      await first.work(queue, { concurrency: 2 }, handler('first'))
      await second.work(queue, { concurrency: 2 }, handler('second'))
      const ids: string[] = []
      for (let i = 0; i < 40; i++) {
        ids.push(await (i % 2 ? first : second).send(queue, { i }, jobOptions()))
      }
      await waitFor(() => handled.size === 40, 'forty jobs')
      await sleep(300)
      expect([...handled.keys()].sort()).toEqual([...ids].sort())
      for (const who of handled.values()) expect(who).toHaveLength(1)
      const byFirst = [...handled.values()].filter(([who]) => who === 'first').length
      console.info(`[${name}] two backends shared 40 jobs: ${byFirst} / ${40 - byFirst}`)
      expect(byFirst).toBeGreaterThan(0)
      expect(byFirst).toBeLessThan(40)
    })

    it('cancels a job that has not started, and not one that is running', async () => {
      const queue = uniqueQueue()
      const sender = backend()
      const canceled = await sender.send(queue, { label: 'canceled' }, jobOptions())
      expect(await sender.cancel(canceled)).toBe(true)
      expect(await sender.cancel(canceled)).toBe(false)
      expect(await sender.cancel('no-such-job')).toBe(false)

      const seen: string[] = []
      let release = false
      await backend().work<{ label: string }>(queue, { concurrency: 1 }, async (job) => {
        seen.push(job.data.label)
        await waitFor(() => release, 'release', 20_000)
      })
      const running = await sender.send(queue, { label: 'running' }, jobOptions())
      await waitFor(() => seen.includes('running'), 'the running job')
      expect(await sender.cancel(running)).toBe(false)
      release = true
      await sender.send(queue, { label: 'after' }, jobOptions())
      await waitFor(() => seen.includes('after'), 'the last job')
      expect(seen).toEqual(['running', 'after'])
    })

    it('retries a throwing handler up to maxAttempts, then leaves the job failed', async () => {
      const queue = uniqueQueue()
      const worker = backend()
      const attempts: Record<string, number[]> = { always: [], once: [], marker: [] }
      const maxAttempts = new Set<number>()
      await worker.work<{ label: string }>(queue, { concurrency: 1 }, async (job) => {
        attempts[job.data.label]?.push(job.attempt)
        maxAttempts.add(job.maxAttempts)
        if (job.data.label === 'always') throw new Error('always fails')
        if (job.data.label === 'once' && job.attempt === 1) throw new Error('fails once')
      })
      await worker.send(queue, { label: 'always' }, jobOptions({ maxAttempts: 3 }))
      await worker.send(queue, { label: 'once' }, jobOptions({ maxAttempts: 3 }))
      await waitFor(() => attempts.always?.length === 3 && attempts.once?.length === 2, 'the retries')
      // a fourth attempt would have been ready before this job, sent last
      await worker.send(queue, { label: 'marker' }, jobOptions({ maxAttempts: 3 }))
      await waitFor(() => attempts.marker?.length === 1, 'the marker job')
      await sleep(500)
      expect(attempts).toEqual({ always: [1, 2, 3], once: [1, 2], marker: [1] })
      expect([...maxAttempts]).toEqual([3])
    })

    it('runs a job again, as attempt 2, once the lease of a stuck attempt runs out', async () => {
      const queue = uniqueQueue()
      const worker = backend()
      const runs: { attempt: number; label: string; signal: AbortSignal; at: number }[] = []
      // concurrency 2: the stuck first attempt keeps its slot
      await worker.work<{ label: string }>(queue, { concurrency: 2 }, async (job, signal) => {
        runs.push({ attempt: job.attempt, label: job.data.label, signal, at: Date.now() })
        if (job.attempt === 1) await new Promise(() => {})
      })
      const sentAt = Date.now()
      await worker.send(queue, { label: 'stuck' }, jobOptions({ timeoutSeconds: 1, maxAttempts: 2 }))
      await waitFor(() => runs.length === 2, 'the second attempt', 20_000)
      expect(runs.map((run) => [run.attempt, run.label])).toEqual([
        [1, 'stuck'],
        [2, 'stuck'],
      ])
      // the lapsed lease aborts the first attempt's signal (its timer may fire just after the re-claim)
      await waitFor(() => runs[0]?.signal.aborted === true, 'the first attempt aborted', 5_000)
      console.info(`[${name}] lease of 1 s: attempt 2 started ${(runs[1]?.at ?? 0) - sentAt} ms after send`)
    })

    it('stop() waits for running handlers to finish', async () => {
      const queue = uniqueQueue()
      const worker = backend()
      let started = 0
      let finished = 0
      await worker.work(queue, { concurrency: 2 }, async () => {
        started++
        await sleep(300)
        finished++
      })
      await worker.send(queue, { n: 1 }, jobOptions({ timeoutSeconds: 1, maxAttempts: 2 }))
      await worker.send(queue, { n: 2 }, jobOptions({ timeoutSeconds: 1, maxAttempts: 2 }))
      await waitFor(() => started === 2, 'two handlers')
      await worker.stop(10_000)
      expect(finished).toBe(2)

      // both were completed: no second attempt comes after their lease would have run out
      const again: number[] = []
      await backend().work(queue, { concurrency: 2 }, async (job) => {
        again.push(job.attempt)
      })
      await sleep(2500)
      expect(again).toEqual([])
    })

    it('stop() aborts handlers still running at the deadline; the job is tried again', async () => {
      const queue = uniqueQueue()
      const worker = backend()
      let signal: AbortSignal | undefined
      await worker.work(queue, { concurrency: 1 }, async (_job, jobSignal) => {
        signal = jobSignal
        await aborted(jobSignal)
        throw new Error('aborted')
      })
      const id = await worker.send(queue, {}, jobOptions({ maxAttempts: 2 }))
      await waitFor(() => signal !== undefined, 'the handler')
      const stopping = Date.now()
      await worker.stop(300)
      expect(signal?.aborted).toBe(true)
      expect(Date.now() - stopping).toBeLessThan(10_000)

      const retried: Job<object>[] = []
      await backend().work(queue, { concurrency: 1 }, async (job) => {
        retried.push(job)
      })
      await waitFor(() => retried.length === 1, 'the retry')
      expect(retried[0]).toMatchObject({ id, attempt: 2, maxAttempts: 2 })
    })

    it('prints send-to-start latency', async () => {
      const queue = uniqueQueue()
      const [sender, worker] = [backend(), backend()]
      const startedAt = new Map<string, number>()
      await worker.work(queue, { concurrency: 1 }, async (job) => {
        startedAt.set(job.id, now())
      })
      const samples = async (from: QueueBackend) => {
        const measured: number[] = []
        for (let i = 0; i < 30; i++) {
          const sent = now()
          const id = await from.send(queue, { i }, jobOptions())
          await waitFor(() => startedAt.has(id), 'the job')
          measured.push((startedAt.get(id) ?? NaN) - sent)
        }
        return measured
      }
      console.info(`[${name}] send-to-start, same backend: ${percentiles(await samples(worker))}`)
      console.info(
        `[${name}] send-to-start, another backend in this process: ${percentiles(await samples(sender))}`,
      )
      expect(startedAt.size).toBe(60)
    })

    describe('with workers in other processes', () => {
      it('runs the job of a killed worker process again, as attempt 2', async () => {
        const queue = uniqueQueue()
        const child = await spawnWorker(queue, 'hang')
        const sender = backend()
        const id = await sender.send(
          queue,
          { label: 'orphan' },
          jobOptions({ timeoutSeconds: 2, maxAttempts: 2 }),
        )
        await waitFor(() => child.lines.some((line) => line.event === 'start' && line.id === id), 'the child')
        expect(child.lines.find((line) => line.event === 'start')).toMatchObject({ attempt: 1 })
        child.process.kill('SIGKILL')
        const killedAt = Date.now()

        const retried: Job<object>[] = []
        await sender.work(queue, { concurrency: 1 }, async (job) => {
          retried.push(job)
        })
        await waitFor(() => retried.length === 1, 'the job again', 20_000)
        expect(retried[0]).toMatchObject({ id, attempt: 2, data: { label: 'orphan' } })
        console.info(
          `[${name}] killed worker (lease 2 s): job ran again ${Date.now() - killedAt} ms after SIGKILL`,
        )
      })

      it('shares the work between two worker processes, no job twice', async () => {
        const queue = uniqueQueue()
        const workers = await Promise.all([spawnWorker(queue, 'serve', 2), spawnWorker(queue, 'serve', 2)])
        const sender = backend()
        const starts = () => workers.flatMap((w) => w.lines.filter((line) => line.event === 'start'))

        // one at a time first: the time from send to a handler starting in another process
        const latency: number[] = []
        for (let i = 0; i < 20; i++) {
          const sent = now()
          const id = await sender.send(queue, { ms: 0 }, jobOptions())
          await waitFor(() => starts().some((line) => line.id === id), 'the job')
          latency.push((starts().find((line) => line.id === id)?.at ?? NaN) - sent)
        }
        console.info(`[${name}] send-to-start, worker in another process: ${percentiles(latency)}`)

        const ids = await Promise.all(
          Array.from({ length: 40 }, (_, i) => sender.send(queue, { ms: 10, i }, jobOptions())),
        )
        await waitFor(() => ids.every((id) => starts().some((line) => line.id === id)), 'forty jobs', 20_000)
        await sleep(300)
        const started = starts().filter((line) => ids.includes(line.id ?? ''))
        expect(started.map((line) => line.id).sort()).toEqual([...ids].sort())
        const [one, other] = workers.map(
          (w) => w.lines.filter((line) => line.event === 'start' && ids.includes(line.id ?? '')).length,
        )
        console.info(`[${name}] two worker processes shared 40 jobs: ${one} / ${other}`)
        expect(one).toBeGreaterThan(0)
        expect(other).toBeGreaterThan(0)
      })
    })
  })
}
