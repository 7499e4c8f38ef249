import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { SqliteJobStore } from './sqlite-job-store.ts'

const OPTIONS = { priority: 'normal', maxAttempts: 3, timeoutSeconds: 30 } as const

function store() {
  const db = new Database(':memory:')
  return { db, jobs: new SqliteJobStore(db) }
}

describe('SqliteJobStore', () => {
  it('keeps a job that failed with a retry delay back until its time, then claims it', async () => {
    const { jobs } = store()
    jobs.insert('q', { n: 1 }, OPTIONS)
    const [first] = jobs.claim('q', 'w', 1)
    expect(jobs.fail(first!, new Error('try again'), 150)).toBe(true)
    expect(jobs.counts()).toEqual({ queued: 1 })
    expect(jobs.claim('q', 'w', 1)).toEqual([])
    await new Promise((r) => setTimeout(r, 200))
    const [again] = jobs.claim('q', 'w', 1)
    expect(again).toMatchObject({ data: { n: 1 }, attempt: 2 })
  })

  it('cancels a job that waits for its retry', () => {
    const { jobs } = store()
    const id = jobs.insert('q', {}, OPTIONS)
    const [job] = jobs.claim('q', 'w', 1)
    jobs.fail(job!, 'later', 60_000)
    expect(jobs.cancel(id)).toBe(true)
    expect(jobs.counts()).toEqual({})
  })

  it('claims due jobs in priority and arrival order past a deep backlog of waiting retries', () => {
    const { jobs } = store()
    for (let i = 0; i < 3000; i++) jobs.insert('q', { waiting: i }, OPTIONS)
    for (const job of jobs.claim('q', 'w', 3000)) jobs.fail(job, 'endpoint down', 3_600_000)
    jobs.insert('q', { n: 'low' }, { ...OPTIONS, priority: 'low' })
    jobs.insert('q', { n: 'first' }, OPTIONS)
    jobs.insert('q', { n: 'second' }, OPTIONS)
    expect(jobs.claim('q', 'w', 2).map((j) => j.data)).toEqual([{ n: 'first' }, { n: 'second' }])
    expect(jobs.claim('q', 'w', 5).map((j) => j.data)).toEqual([{ n: 'low' }])
    expect(jobs.counts()).toEqual({ queued: 3000, active: 3 })
  })

  it('turns a queued row written before retries were scheduled into one that waits', () => {
    const { db, jobs } = store()
    jobs.insert('q', { n: 1 }, OPTIONS)
    // as an older version left it: queued, due in an hour
    db.prepare(`UPDATE docsvc_queue_job SET run_after = ?`).run(Date.now() + 3_600_000)
    const reopened = new SqliteJobStore(db)
    expect(reopened.claim('q', 'w', 1)).toEqual([])
    expect(reopened.counts()).toEqual({ queued: 1 })
  })
})
