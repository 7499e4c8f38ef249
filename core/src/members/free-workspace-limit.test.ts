import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'
import { ENDED_OWNERSHIP_DAYS } from './free-workspace-limit.ts'

const TOKEN = 'operator-secret-token-0123456789abcdef'

// SPEC 7.3's 402 free_workspace_limit (docs/decisions/0099) through the admin API: the three
// ways to come to own a Free workspace, removals counted for 30 days, and parallel creations.
describe.each(TEST_DIALECTS)('the free workspace limit on %s', (dialect) => {
  let t: TestKernel
  const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.inject({ method, url, headers: { authorization: `Bearer ${TOKEN}` }, ...(payload ? { payload } : {}) })
  const createFree = (owner_email?: string, name = 'Team') =>
    admin('POST', '/admin/v1/workspaces', { name, plan: 'free', ...(owner_email ? { owner_email } : {}) })
  const workspaceCount = async () => (await admin('GET', '/admin/v1/workspaces')).json().data.length
  const membersOf = async (id: string) =>
    (await admin('GET', `/admin/v1/workspaces/${id}/members`)).json().data
  /** two Free workspaces owned by `email`, the most a person may own */
  const ownTwo = async (email: string) => {
    const made = [await createFree(email), await createFree(email)]
    for (const res of made) expect(res.statusCode, res.body).toBe(201)
    return made.map((res) => res.json() as { id: string; owner: { id: string } })
  }
  const expectLimit = (res: Awaited<ReturnType<typeof admin>>, email: string) => {
    expect(res.statusCode, res.body).toBe(402)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({
      code: 'free_workspace_limit',
      detail: expect.stringContaining(`${email} already owns 2 Free workspaces`),
    })
    expect(res.json().detail).toContain('at most 2')
  }

  beforeAll(async () => {
    t = await startTestKernel({ dialect, env: { DOCSVC_OPERATOR_TOKEN: TOKEN } })
  })
  afterAll(() => t.close())

  it('refuses a third Free workspace created with the same owner, and stores nothing', async () => {
    const owned = await ownTwo('ada@example.com')
    const before = await workspaceCount()
    // the address as members store it: case and spaces do not make another person
    const third = await createFree(' ADA@example.com ')
    expectLimit(third, 'ada@example.com')
    for (const { id } of owned) expect(third.json().detail).toContain(id)
    expect(await workspaceCount()).toBe(before)
    // another plan, or the Free workspace without this owner, is not limited
    const starter = await admin('POST', '/admin/v1/workspaces', {
      name: 'Paid',
      plan: 'starter',
      owner_email: 'ada@example.com',
    })
    expect(starter.statusCode, starter.body).toBe(201)
    expect((await createFree('bea@example.com')).statusCode).toBe(201)
  })

  it('refuses adding the owner to a Free workspace; other roles and plans are not limited', async () => {
    await ownTwo('cy@example.com')
    const free = (await createFree()).json()
    const owner = await admin('POST', `/admin/v1/workspaces/${free.id}/members`, {
      email: 'cy@example.com',
      role: 'owner',
    })
    expectLimit(owner, 'cy@example.com')
    // the first member becomes the owner by default: refused the same way
    expectLimit(
      await admin('POST', `/admin/v1/workspaces/${free.id}/members`, { email: 'cy@example.com' }),
      'cy@example.com',
    )
    expect(await membersOf(free.id)).toEqual([])
    const developer = await admin('POST', `/admin/v1/workspaces/${free.id}/members`, {
      email: 'cy@example.com',
      role: 'developer',
    })
    expect(developer.statusCode, developer.body).toBe(201)
    const paid = (await admin('POST', '/admin/v1/workspaces', { name: 'Paid', plan: 'growth' })).json()
    const paidOwner = await admin('POST', `/admin/v1/workspaces/${paid.id}/members`, {
      email: 'cy@example.com',
      role: 'owner',
    })
    expect(paidOwner.statusCode, paidOwner.body).toBe(201)
  })

  it('refuses moving a workspace to Free when an owner owns two Free workspaces already', async () => {
    await ownTwo('dee@example.com')
    const paid = (
      await admin('POST', '/admin/v1/workspaces', {
        name: 'Paid',
        plan: 'starter',
        owner_email: 'dee@example.com',
      })
    ).json()
    const url = `/admin/v1/workspaces/${paid.id}`
    expectLimit(await admin('PATCH', url, { plan: 'free', status: 'suspended' }), 'dee@example.com')
    // nothing of the refused PATCH was stored
    expect((await admin('GET', url)).json()).toMatchObject({ plan_id: 'starter', status: 'active' })
    // an owner with one Free workspace may move a second one to Free
    const one = (await createFree('eve@example.com')).json()
    const other = (
      await admin('POST', '/admin/v1/workspaces', {
        name: 'Paid',
        plan: 'pro',
        owner_email: 'eve@example.com',
      })
    ).json()
    const moved = await admin('PATCH', `/admin/v1/workspaces/${other.id}`, { plan: 'free' })
    expect(moved.statusCode, moved.body).toBe(200)
    expect(moved.json().plan_id).toBe('free')
    // and staying on Free is no new ownership
    expect((await admin('PATCH', `/admin/v1/workspaces/${one.id}`, { plan: 'free' })).statusCode).toBe(200)
  })

  it(`counts a Free workspace the owner left for ${ENDED_OWNERSHIP_DAYS} days`, async () => {
    const [first] = await ownTwo('fay@example.com')
    if (!first) throw new Error('no workspace')
    const removed = await admin('DELETE', `/admin/v1/workspaces/${first.id}/members/${first.owner.id}`)
    expect(removed.statusCode, removed.body).toBe(204)
    // stepping down as owner does not free a place: the workspace still counts
    const again = await createFree('fay@example.com')
    expectLimit(again, 'fay@example.com')
    expect(again.json().detail).toContain(first.id)
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + (ENDED_OWNERSHIP_DAYS - 1) * 86_400_000)
      expectLimit(await createFree('fay@example.com'), 'fay@example.com')
      vi.setSystemTime(Date.now() + 2 * 86_400_000)
      const later = await createFree('fay@example.com')
      expect(later.statusCode, later.body).toBe(201)
    } finally {
      vi.useRealTimers()
    }
  })

  it('lets exactly two of eight parallel creations for one address through', async () => {
    const before = await workspaceCount()
    // eight at once: without the lock rows PostgreSQL lets more than two pass the count
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => createFree('gus@example.com', `Race ${n}`)),
    )
    const statuses = answers.map((res) => res.statusCode).sort()
    expect(statuses).toEqual([201, 201, 402, 402, 402, 402, 402, 402])
    expect(await workspaceCount()).toBe(before + 2)
    // and parallel owner additions to two Free workspaces for an address that owns one
    await createFree('hal@example.com')
    const free = [(await createFree()).json(), (await createFree()).json()]
    const added = await Promise.all(
      free.map((ws) => admin('POST', `/admin/v1/workspaces/${ws.id}/members`, { email: 'hal@example.com' })),
    )
    expect(added.map((res) => res.statusCode).sort()).toEqual([201, 402])
  })

  it('gives each kit workspace its own verified owner', async () => {
    const [a, b, c] = [
      await t.createWorkspace({ plan: 'free' }),
      await t.createWorkspace({ plan: 'free' }),
      await t.createWorkspace({ plan: 'free' }),
    ]
    const owners = new Set([a?.ownerEmail, b?.ownerEmail, c?.ownerEmail])
    expect(owners.size).toBe(3)
    expect(await membersOf(a?.workspace.id ?? '')).toEqual([
      expect.objectContaining({ email: a?.ownerEmail, role: 'owner', verified: true }),
    ])
  })
})
