import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_TEST_ENV, expectProblem, getAccount } from '../api-keys/auth-test-support.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'
import type { WorkspaceService } from './workspace-service.ts'

describe.each(TEST_DIALECTS)('workspace status and its keys on %s', (dialect) => {
  let t: TestKernel
  let workspaces: WorkspaceService

  beforeAll(async () => {
    t = await startTestKernel({ dialect, env: AUTH_TEST_ENV })
    workspaces = t.kernel.container.cradle.workspaceService
  })
  afterAll(() => t.close())

  it('refuses every key of a suspended workspace with 403 workspace_suspended', async () => {
    const { workspace, liveKey, testKey } = await t.createWorkspace()
    expect((await getAccount(t, { key: liveKey })).statusCode).toBe(200)
    const suspended = await workspaces.setStatus(workspace.id, 'suspended')
    expect(suspended.status).toBe('suspended')
    expectProblem(await getAccount(t, { key: liveKey }), 403, 'workspace_suspended')
    expectProblem(await getAccount(t, { headers: { 'x-api-key': testKey } }), 403, 'workspace_suspended')
  })

  it('refuses keys of a workspace scheduled for deletion with 403 workspace_deletion_scheduled', async () => {
    const { workspace, liveKey, testKey } = await t.createWorkspace()
    await workspaces.setStatus(workspace.id, 'deletion_scheduled')
    expectProblem(await getAccount(t, { key: liveKey }), 403, 'workspace_deletion_scheduled')
    expectProblem(await getAccount(t, { key: testKey }), 403, 'workspace_deletion_scheduled')
  })

  it('lets the keys in again once the workspace is active', async () => {
    const { workspace, liveKey } = await t.createWorkspace()
    await workspaces.setStatus(workspace.id, 'suspended')
    expectProblem(await getAccount(t, { key: liveKey }), 403, 'workspace_suspended')
    await workspaces.setStatus(workspace.id, 'active')
    const res = await getAccount(t, { key: liveKey })
    expect(res.statusCode).toBe(200)
    expect(res.json().workspace.status).toBe('active')
  })

  it('touches only the workspace whose status changed', async () => {
    const a = await t.createWorkspace()
    const b = await t.createWorkspace()
    await workspaces.setStatus(a.workspace.id, 'suspended')
    expectProblem(await getAccount(t, { key: a.liveKey }), 403, 'workspace_suspended')
    expect((await getAccount(t, { key: b.liveKey })).statusCode).toBe(200)
  })

  it('still answers the key 401s first: a bad key learns nothing about the workspace', async () => {
    const { workspace, liveKey } = await t.createWorkspace()
    await workspaces.setStatus(workspace.id, 'suspended')
    expectProblem(await getAccount(t, { key: `${liveKey.slice(0, -1)}_` }), 401, 'invalid_api_key')
    expectProblem(await getAccount(t), 401, 'authentication_required')
  })

  it('answers the workspace state before the IP allowlist', async () => {
    const { workspace, liveKey } = await t.createWorkspace()
    await workspaces.setIpAllowlist(workspace.id, ['198.51.100.0/24'])
    await workspaces.setStatus(workspace.id, 'deletion_scheduled')
    const res = await getAccount(t, { key: liveKey, remoteAddress: '192.0.2.1' })
    expectProblem(res, 403, 'workspace_deletion_scheduled')
  })

  it('answers not_found for a workspace that does not exist', async () => {
    await expect(workspaces.setStatus('ws_doesnotexist0000000000000', 'suspended')).rejects.toMatchObject({
      code: 'not_found',
    })
  })

  it('starts new workspaces active with no allowlist', async () => {
    const ws = await workspaces.create({ name: '  Fresh  ', plan: 'starter' })
    expect(ws).toMatchObject({ name: 'Fresh', status: 'active', ip_allowlist: null, plan_id: 'starter' })
    expect(ws.id).toMatch(/^ws_[0-9a-z]+$/)
    expect(await workspaces.get(ws.id)).toEqual(ws)
  })

  it('refuses an empty name and an unknown plan', async () => {
    await expect(workspaces.create({ name: '   ' })).rejects.toMatchObject({ code: 'validation_error' })
    await expect(workspaces.create({ name: 'x', plan: 'platinum' })).rejects.toMatchObject({
      code: 'validation_error',
    })
  })
})
