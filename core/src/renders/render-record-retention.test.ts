import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { FAKE_RENDER_BUILTINS } from './fake-render-plugins.fixture.ts'

const DAY_MS = 24 * 3600 * 1000

// Issue 13 item 8: render records do not stay forever. The sweeper deletes a finished record
// `renderRecordRetentionDays` after its last change, never before its hosted files expired.
describe.each(TEST_DIALECTS)('render record retention on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({
      dialect,
      builtins: FAKE_RENDER_BUILTINS,
      roles: ['api', 'worker'],
      env: { DOCSVC_RENDER_RECORD_RETENTION_DAYS: '10' },
    })
    // Starter keeps files 7 days
    ws = await t.createWorkspace({ plan: 'starter' })
    await t.setPlanLimits('starter', { requests_per_second: 10_000 })
  })
  afterAll(() => t?.close())

  const render = (html: string) =>
    t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.liveKey,
      payload: { input: { type: 'html', html } },
    })
  const status = async (id: string) => {
    const res = await t.inject({ method: 'GET', url: `/v1/renders/${id}`, key: ws.liveKey })
    return res.statusCode === 200 ? res.json().status : res.statusCode
  }
  const rowsOf = async (id: string) => {
    const { kysely } = t.kernel.db
    const count = async (table: 'renders' | 'render_files' | 'render_logs' | 'billed_renders') =>
      (
        await kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(table === 'renders' ? 'id' : 'render_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n
    return {
      renders: Number(await count('renders')),
      files: Number(await count('render_files')),
      logs: Number(await count('render_logs')),
      billed: Number(await count('billed_renders')),
    }
  }

  it('deletes failed records after the retention, and hosted ones only after their files expired', async () => {
    const kept = await render('kept for a week')
    const failed = await render('fail:navigation_failed')
    expect(kept.statusCode).toBe(200)
    expect(failed.statusCode).toBe(422)
    const keptId = kept.json().id as string
    const failedId = failed.json().render_id as string
    const { renderSweeper, fileStore, renderRepository } = t.kernel.container.cradle
    const [file] = await renderRepository.files(keptId)
    expect(await rowsOf(keptId)).toMatchObject({ renders: 1, files: 1, billed: 1 })

    const at = (days: number) => new Date(Date.now() + days * DAY_MS)
    // day 9: the files expired (7 days), the failed record is inside its 10 days
    await renderSweeper.sweep(at(9))
    expect(await status(keptId)).toBe('expired')
    expect(await status(failedId)).toBe('failed')

    // day 11: the failed record is gone; the expired one changed on day 9 and stays
    expect((await renderSweeper.sweep(at(11))).deleted).toBeGreaterThanOrEqual(1)
    expect(await status(failedId)).toBe(404)
    expect(await rowsOf(failedId)).toMatchObject({ renders: 0, logs: 0 })
    expect(await status(keptId)).toBe('expired')

    // day 20: the expired record goes with its file rows and log; the billing ledger keeps its line
    await renderSweeper.sweep(at(20))
    expect(await status(keptId)).toBe(404)
    expect(await rowsOf(keptId)).toEqual({ renders: 0, files: 0, logs: 0, billed: 1 })
    expect(await fileStore.get(file!.storage_key)).toBeUndefined()
  })

  it('never deletes a succeeded render whose hosted files are still kept', async () => {
    const res = await render('still hosted')
    const id = res.json().id as string
    // its files expire on day 7; a record sweep alone (as if expiry had not run) leaves it
    const { renderRepository } = t.kernel.container.cradle
    const cutoff = new Date(Date.now() + 30 * DAY_MS).toISOString()
    const due = await renderRepository.pastRecordRetention(cutoff, 1000)
    expect(due.map((r) => r.id)).not.toContain(id)
  })
})
