import { afterAll, describe, expect, it } from 'vitest'
import { ProblemError } from '../problem-error.ts'
import { exclusiveBuffer, WorkerPool } from './worker-pool.ts'
import {
  WorkerCrashed,
  WorkerMemoryBudgetExceeded,
  WorkerPoolClosed,
  WorkerTimeBudgetExceeded,
} from './worker-pool-errors.ts'
import type { FixtureInput } from './worker-pool-tasks.fixture.ts'

// The pool's budgets end a misbehaving task with a typed error and a fresh thread: the task
// after it runs as usual. Budgets are small so that the suite stays fast.

const MODULE = new URL('./worker-pool-tasks.fixture.ts', import.meta.url)
const pool = new WorkerPool({
  name: 'test',
  size: 2,
  heapMb: 48,
  buffersMb: 96,
  budgetCode: 'invalid_pdf_source',
})
afterAll(() => pool.close())

const run = <T = never>(
  input: FixtureInput,
  more: { timeMs?: number; signal?: AbortSignal; transfer?: ArrayBuffer[] } = {},
) => pool.run<T>({ module: MODULE, input, timeMs: 5_000, subject: 'The fixture', ...more })

type Failure = Error & { code?: string; detail?: string }
const failed = (e: unknown) => e as Failure

async function expectHealthy(): Promise<void> {
  expect(await run({ kind: 'echo', value: { n: 1 } })).toEqual({ n: 1 })
}

describe('WorkerPool', () => {
  it('runs a task by its module and answers what it returns', async () => {
    await expectHealthy()
  })

  it('ends a task past its time budget with WorkerTimeBudgetExceeded, in the pool problem code', async () => {
    const err = await run({ kind: 'spin' }, { timeMs: 200 }).catch(
      (e: Error & { code?: string; detail?: string }) => e,
    )
    expect(err).toBeInstanceOf(WorkerTimeBudgetExceeded)
    expect(err).toMatchObject({
      code: 'invalid_pdf_source',
      detail: 'The fixture exceeded its time budget of 200 ms.',
    })
    await expectHealthy()
  })

  it('ends a task past its heap with WorkerMemoryBudgetExceeded', async () => {
    const err = await run({ kind: 'heap' }).catch(failed)
    expect(err).toBeInstanceOf(WorkerMemoryBudgetExceeded)
    expect(err.detail).toBe('The fixture exceeded its memory budget of 48 MB.')
    await expectHealthy()
  })

  it('ends a task holding ArrayBuffers past the budget, which V8 does not count as heap', async () => {
    const err = await run({ kind: 'buffers' }).catch(failed)
    expect(err).toBeInstanceOf(WorkerMemoryBudgetExceeded)
    expect(err.detail).toBe('The fixture exceeded its memory budget of 96 MB.')
    await expectHealthy()
  })

  it("passes a task's ProblemError through with its code, detail and extras", async () => {
    const err = await run({ kind: 'problem' }).catch(failed)
    expect(err).toBeInstanceOf(ProblemError)
    expect(err).toMatchObject({ code: 'invalid_pdf_source', detail: 'Not a PDF.', extras: { source: 1 } })
  })

  it('answers WorkerCrashed (internal_error) for a thread that exits, and replaces it', async () => {
    const err = await run({ kind: 'exit' }).catch(failed)
    expect(err).toBeInstanceOf(WorkerCrashed)
    expect(err.code).toBe('internal_error')
    await expectHealthy()
  })

  it('moves bytes both ways with transfer lists', async () => {
    const bytes = new Uint8Array([1, 2, 3])
    const out = await run<{ bytes: Uint8Array; received: number }>(
      { kind: 'reverse', bytes },
      { transfer: exclusiveBuffer(bytes) },
    )
    expect([...out.bytes]).toEqual([3, 2, 1])
    expect(out.received).toBe(3)
    // moved, not copied: the caller's view is detached
    expect(bytes.byteLength).toBe(0)
    // a slice of Node's shared Buffer pool is never moved
    expect(exclusiveBuffer(Buffer.from('small'))).toEqual([])
  })

  it('fails a running task with the abort reason and a queued one without running it', async () => {
    const busy = new AbortController()
    const queued = new AbortController()
    const first = run({ kind: 'spin' }, { signal: busy.signal }).catch(
      (e: Error & { code?: string; detail?: string }) => e,
    )
    const second = run({ kind: 'spin' }, { signal: AbortSignal.any([busy.signal]) }).catch(
      (e: Error & { code?: string; detail?: string }) => e,
    )
    const third = run({ kind: 'spin' }, { signal: queued.signal }).catch(
      (e: Error & { code?: string; detail?: string }) => e,
    )
    queued.abort(new Error('not needed'))
    busy.abort(new Error('canceled'))
    expect((await first).message).toBe('canceled')
    expect((await second).message).toBe('canceled')
    expect((await third).message).toBe('not needed')
    await expectHealthy()
  })

  it('queues tasks beyond its threads and runs them once threads are free', async () => {
    const many = await Promise.all(Array.from({ length: 6 }, (_, i) => run({ kind: 'echo', value: i })))
    expect(many).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('fails tasks with WorkerPoolClosed once closed', async () => {
    const other = new WorkerPool({ name: 'closing', size: 1, heapMb: 32, budgetCode: 'render_failed' })
    const running = other.run({ module: MODULE, input: { kind: 'spin' }, timeMs: 5_000 }).catch(failed)
    await new Promise((r) => setTimeout(r, 300))
    await other.close()
    expect(await running).toBeInstanceOf(WorkerPoolClosed)
    await expect(other.run({ module: MODULE, input: { kind: 'spin' }, timeMs: 5 })).rejects.toBeInstanceOf(
      WorkerPoolClosed,
    )
  })
})
