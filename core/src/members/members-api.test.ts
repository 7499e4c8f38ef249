import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../renders/fake-render-plugins.fixture.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'
import { VERIFICATION_LINK_HOURS } from './verification-links.ts'

const TOKEN = 'operator-secret-token-0123456789abcdef'

describe.each(TEST_DIALECTS)('workspace members on %s', (dialect) => {
  let t: TestKernel
  const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.inject({ method, url, headers: { authorization: `Bearer ${TOKEN}` }, ...(payload ? { payload } : {}) })
  const renderLive = (key: string) =>
    t.inject({ method: 'POST', url: '/v1/renders', key, payload: { input: { type: 'html', html: 'x' } } })
  /** the link's path on this instance (the URL names DOCSVC_PUBLIC_URL's host) */
  const pathOf = (url: string) => new URL(url).pathname
  /** a member the operator just added as owner: unverified, with the link to pass on */
  const newOwner = (email: string) => ({
    id: expect.stringMatching(/^mem_/),
    email,
    role: 'owner',
    verified: false,
    verified_at: null,
    verification: { url: expect.stringContaining('/verify-email/'), mailed: false },
  })
  const liveKeyOf = async (workspaceId: string) => (await t.createKey({ workspaceId, mode: 'live' })).key
  const workspaceCount = async () => (await admin('GET', '/admin/v1/workspaces')).json().data.length
  const open = (url: string, method: 'GET' | 'POST', accept = 'application/json') =>
    t.inject({ method, url: pathOf(url), headers: { accept } })

  beforeAll(async () => {
    t = await startTestKernel({
      dialect,
      builtins: FAKE_RENDER_BUILTINS,
      roles: ['api', 'worker'],
      env: { DOCSVC_OPERATOR_TOKEN: TOKEN },
    })
  })
  afterAll(() => t.close())

  it('live renders wait for a verified owner (403 email_not_verified); test keys do not; the link verifies once', async () => {
    const ws = await t.createWorkspace({ verifiedOwner: false })
    const refused = await renderLive(ws.liveKey)
    expect(refused.statusCode).toBe(403)
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(refused.json()).toMatchObject({
      code: 'email_not_verified',
      detail: expect.stringContaining('owner has not opened their verification link'),
    })
    expect((await renderLive(ws.testKey)).statusCode).toBe(200)

    // the first member becomes the owner; the operator gets the link to pass on
    const added = await admin('POST', `/admin/v1/workspaces/${ws.workspace.id}/members`, {
      email: ' Ada@Example.COM ',
    })
    expect(added.statusCode).toBe(201)
    const member = added.json()
    expect(member).toMatchObject(newOwner('ada@example.com'))
    const expires = Date.parse(member.verification.expires_at) - Date.now()
    expect(expires).toBeGreaterThan((VERIFICATION_LINK_HOURS - 1) * 3_600_000)
    expect((await renderLive(ws.liveKey)).statusCode).toBe(403)

    // opening the page (as a mail scanner would) spends nothing
    const page = await open(member.verification.url, 'GET', 'text/html')
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.headers['content-security-policy']).toContain("default-src 'none'")
    expect(page.body).toContain('<form method="post">')
    expect(page.body).toContain('Confirm that ada@example.com is your address.')
    expect((await renderLive(ws.liveKey)).statusCode).toBe(403)

    const verified = await open(member.verification.url, 'POST')
    expect(verified.statusCode).toBe(200)
    expect(verified.json()).toMatchObject({ status: 'verified', email: 'ada@example.com' })
    expect((await renderLive(ws.liveKey)).statusCode).toBe(200)

    // one-time: the second use is refused, as JSON and as a page
    const again = await open(member.verification.url, 'POST')
    expect(again.statusCode).toBe(410)
    expect(again.json()).toMatchObject({
      code: 'link_expired',
      detail: expect.stringContaining('used already'),
    })
    const againPage = await open(member.verification.url, 'POST', 'text/html')
    expect(againPage.statusCode).toBe(410)
    expect(againPage.body).toContain('used already')
    // the page says so before anyone presses the button
    const usedPage = await open(member.verification.url, 'GET', 'text/html')
    expect(usedPage.statusCode).toBe(410)
    expect(usedPage.headers['content-type']).toMatch(/^text\/html/)
    expect(usedPage.body).toContain('<h1>Link expired</h1>')

    // the email routes' check of test_recipient, send_to and to (SPEC 2.9, 4.8)
    const { memberService } = t.kernel.container.cradle
    expect(await memberService.isVerifiedAddress(ws.workspace.id, 'ADA@example.com')).toBe(true)
    expect(await memberService.isVerifiedAddress(ws.workspace.id, 'eve@example.com')).toBe(false)
    const list = await admin('GET', `/admin/v1/workspaces/${ws.workspace.id}/members`)
    expect(list.json().data).toEqual([
      expect.objectContaining({ email: 'ada@example.com', verified: true, verified_at: expect.any(String) }),
    ])
    // a verified member needs no new link
    const noLink = await admin(
      'POST',
      `/admin/v1/workspaces/${ws.workspace.id}/members/${member.id}/verification-link`,
    )
    expect(noLink.statusCode).toBe(409)
    expect(noLink.json().code).toBe('conflict')

    // without its verified owner the workspace stops rendering live again
    const removed = await admin('DELETE', `/admin/v1/workspaces/${ws.workspace.id}/members/${member.id}`)
    expect(removed.statusCode).toBe(204)
    expect((await renderLive(ws.liveKey)).json().code).toBe('email_not_verified')
  })

  it('a new link replaces the old one; tampered and expired links are refused', async () => {
    const ws = await t.createWorkspace({ verifiedOwner: false })
    const base = `/admin/v1/workspaces/${ws.workspace.id}/members`
    const dev = (await admin('POST', base, { email: 'dev@example.com', role: 'developer' })).json()
    expect(dev.role).toBe('developer')
    const { memberService } = t.kernel.container.cradle
    // not verified yet: not an address the email routes accept
    expect(await memberService.isVerifiedAddress(ws.workspace.id, 'dev@example.com')).toBe(false)
    const newer = await admin('POST', `${base}/${dev.id}/verification-link`)
    expect(newer.statusCode).toBe(200)
    const replaced = await open(dev.verification.url, 'POST')
    expect(replaced.statusCode).toBe(410)
    expect(replaced.json().detail).toContain('newer verification link')

    const tampered = `${newer.json().url.slice(0, -3)}AAA`
    const forged = await open(tampered, 'POST')
    expect(forged.statusCode).toBe(403)
    expect(forged.json().code).toBe('invalid_signature')
    expect((await open('http://x/verify-email/nonsense', 'GET')).json().code).toBe('invalid_signature')

    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + (VERIFICATION_LINK_HOURS + 1) * 3_600_000)
      const late = await open(newer.json().url, 'POST')
      expect(late.statusCode).toBe(410)
      expect(late.json()).toMatchObject({
        code: 'link_expired',
        detail: expect.stringContaining('expired at'),
      })
    } finally {
      vi.useRealTimers()
    }
    // a developer's verified address does not stand in for the owner's
    expect((await open(newer.json().url, 'POST')).statusCode).toBe(200)
    expect((await renderLive(ws.liveKey)).json().code).toBe('email_not_verified')
  })

  it('refuses bad input with problems that name the field', async () => {
    const ws = await t.createWorkspace()
    const base = `/admin/v1/workspaces/${ws.workspace.id}/members`
    const notEmail = await admin('POST', base, { email: 'not-an-address' })
    expect(notEmail.statusCode).toBe(400)
    expect(notEmail.json()).toMatchObject({ code: 'validation_error', errors: [{ path: '/email' }] })
    const badRole = await admin('POST', base, { email: 'a@example.com', role: 'boss' })
    expect(badRole.statusCode).toBe(400)
    expect(badRole.json().errors[0].path).toBe('/role')
    const extra = await admin('POST', base, { email: 'a@example.com', verified: true })
    expect(extra.statusCode).toBe(400)
    expect(extra.json().code).toBe('validation_error')
    // the kit's owner is already a member: the same address twice (in any case) is a conflict
    const twice = await admin('POST', base, { email: ws.ownerEmail?.toUpperCase() })
    expect(twice.statusCode).toBe(409)
    expect(twice.json().detail).toContain('already a member')
    const unknownWs = await admin('GET', '/admin/v1/workspaces/ws_00000000000000000000/members')
    expect(unknownWs.statusCode).toBe(404)
    const other = await t.createWorkspace()
    const [theirs] = (await admin('GET', `/admin/v1/workspaces/${other.workspace.id}/members`)).json().data
    // another workspace's member is not found through this one
    const foreign = await admin('DELETE', `${base}/${theirs.id}`)
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().code).toBe('not_found')
    const noToken = await t.inject({ method: 'GET', url: base, key: ws.liveKey })
    expect(noToken.statusCode).toBe(401)
  })

  // a workspace created with its owner, and an exemption ended (docs/decisions/0095)
  it('creates a workspace with its owner, unverified, and the link that lets it render live', async () => {
    const created = await admin('POST', '/admin/v1/workspaces', {
      name: 'Acme',
      plan: 'starter',
      owner_email: ' Ada@Example.COM ',
    })
    expect(created.statusCode).toBe(201)
    const ws = created.json()
    expect(ws).toMatchObject({
      id: expect.stringMatching(/^ws_/),
      name: 'Acme',
      plan_id: 'starter',
      email_check_waived: false,
      owner: { ...newOwner('ada@example.com'), workspace_id: ws.id },
    })
    const members = (await admin('GET', `/admin/v1/workspaces/${ws.id}/members`)).json().data
    expect(members).toEqual([expect.objectContaining({ id: ws.owner.id, role: 'owner', verified: false })])

    const liveKey = await liveKeyOf(ws.id)
    expect((await renderLive(liveKey)).json().code).toBe('email_not_verified')
    const opened = await open(ws.owner.verification.url, 'POST')
    expect(opened.statusCode).toBe(200)
    expect((await renderLive(liveKey)).statusCode).toBe(200)
  })

  it('creates a workspace without an owner when no address is given', async () => {
    const created = await admin('POST', '/admin/v1/workspaces', { name: 'No owner yet' })
    expect(created.statusCode).toBe(201)
    expect(created.json()).toMatchObject({ plan_id: 'free', owner: null })
    expect((await admin('GET', `/admin/v1/workspaces/${created.json().id}/members`)).json().data).toEqual([])
  })

  it('refuses an owner address that is not one, naming the field, and creates nothing', async () => {
    const before = await workspaceCount()
    for (const owner_email of ['not-an-address', '', 'two@example.com, three@example.com']) {
      const refused = await admin('POST', '/admin/v1/workspaces', { name: 'Acme', owner_email })
      expect(refused.statusCode).toBe(400)
      expect(refused.json()).toMatchObject({
        code: 'validation_error',
        detail: `/owner_email: ${JSON.stringify(owner_email)} is not an email address`,
        errors: [{ path: '/owner_email', code: 'format' }],
      })
    }
    const wrongType = await admin('POST', '/admin/v1/workspaces', { name: 'Acme', owner_email: 42 })
    expect(wrongType.statusCode).toBe(400)
    expect(wrongType.json().errors[0].path).toBe('/owner_email')
    expect(await workspaceCount()).toBe(before)
  })

  it('ends an exemption from the email check: a live key without a verified owner then gets 403 email_not_verified', async () => {
    // what an upgraded installation's old workspaces and the first-run workspace have
    const { workspaceService } = t.kernel.container.cradle
    const exempt = await workspaceService.create({ name: 'Old', plan: 'starter', emailCheckWaived: true })
    const liveKey = await liveKeyOf(exempt.id)
    expect((await renderLive(liveKey)).statusCode).toBe(200)

    // it can only be ended: `true` is refused with the way to render live, and nothing changes
    const url = `/admin/v1/workspaces/${exempt.id}`
    const waive = await admin('PATCH', url, { email_check_waived: true, plan: 'growth' })
    expect(waive.statusCode).toBe(400)
    expect(waive.json()).toMatchObject({
      code: 'validation_error',
      errors: [{ path: '/email_check_waived', message: expect.stringContaining('docsvc member add') }],
    })
    expect((await admin('GET', url)).json()).toMatchObject({ plan_id: 'starter', email_check_waived: true })

    const ended = await admin('PATCH', url, { email_check_waived: false })
    expect(ended.statusCode).toBe(200)
    expect(ended.json()).toMatchObject({ id: exempt.id, email_check_waived: false })
    const refused = await renderLive(liveKey)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('email_not_verified')
    // an exemption stays ended: the workspace renders live through a verified owner from now on
    expect((await admin('PATCH', url, { email_check_waived: false })).statusCode).toBe(200)
    const owner = await admin('POST', `${url}/members`, { email: 'owner@example.com' })
    await open(owner.json().verification.url, 'POST')
    expect((await renderLive(liveKey)).statusCode).toBe(200)
  })
})
