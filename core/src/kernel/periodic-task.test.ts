import type { Logger } from 'pino'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PeriodicTask } from './periodic-task.ts'

describe('a periodic task', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('runs every interval, survives a failed run (logged), and runs no more after stop()', async () => {
    vi.useFakeTimers()
    const errors: string[] = []
    const log = { error: (_: unknown, msg: string) => errors.push(msg) } as unknown as Logger
    let runs = 0
    const task = new PeriodicTask(
      async () => {
        runs++
        if (runs === 1) throw new Error('disk busy')
      },
      'sweep failed',
      log,
    )
    task.start(1000)
    task.start(1000) // a second start keeps the one timer
    expect(task.running).toBe(true)
    await vi.advanceTimersByTimeAsync(2000)
    expect(runs).toBe(2)
    expect(errors).toEqual(['sweep failed'])
    await task.stop()
    expect(task.running).toBe(false)
    await vi.advanceTimersByTimeAsync(5000)
    expect(runs).toBe(2)
  })
})
