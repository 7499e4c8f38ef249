import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProblemError } from '../kernel/problem-error.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'

// What renders and the sweeper ask outside a request: the plan a workspace is on, through the
// workspace and plan services (they no longer read either repository).
describe.each(TEST_DIALECTS)('a workspace and its plan on %s', (dialect) => {
  let t: TestKernel

  beforeAll(async () => {
    t = await startTestKernel({ dialect })
  })
  afterAll(() => t?.close())

  it("gives the workspace's current plan, with the operator's edits of it", async () => {
    const { workspaceService, planService } = t.kernel.container.cradle
    const { workspace } = await t.createWorkspace()
    await workspaceService.setPlan(workspace.id, 'starter')
    const edited = await planService.change('starter', { limits: { max_pages: 7 } })
    const plan = await workspaceService.planOf(workspace.id)
    expect(plan).toEqual(edited)
    expect(plan?.limits.max_pages).toBe(7)
  })

  it('gives no plan for a workspace that does not exist', async () => {
    expect(await t.kernel.container.cradle.workspaceService.planOf('ws_missing')).toBeUndefined()
  })

  it('refuses a plan that does not exist, naming the plans there are', async () => {
    const { workspaceService, planService } = t.kernel.container.cradle
    const { workspace } = await t.createWorkspace()
    await expect(workspaceService.setPlan(workspace.id, 'platinum')).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringMatching(/^unknown plan platinum; plans: free, starter, /),
    })
    const unknown = await planService.change('platinum', { name: 'Platinum' }).catch((err: unknown) => err)
    expect(unknown).toBeInstanceOf(ProblemError)
    expect(unknown).toMatchObject({ code: 'not_found' })
  })
})
