import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProblemError } from '../kernel/problem-error.ts'
import { addressInRanges, parseCidrList } from '../net/cidr.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from '../testing/index.ts'
import type { WorkspaceService } from '../workspaces/workspace-service.ts'
import { AUTH_TEST_ENV, expectProblem, getAccount } from './auth-test-support.ts'

describe('allowlist ranges', () => {
  it.each([
    ['203.0.113.9', ['203.0.113.0/24'], true],
    ['203.0.114.9', ['203.0.113.0/24'], false],
    ['203.0.113.9', ['203.0.113.9'], true],
    ['203.0.113.10', ['203.0.113.9'], false],
    ['2001:db8::1', ['2001:db8::/32'], true],
    ['2001:db9::1', ['2001:db8::/32'], false],
    ['::ffff:203.0.113.9', ['203.0.113.0/24'], true],
    ['203.0.113.9', ['::ffff:203.0.113.0/120'], true],
    ['::ffff:203.0.113.9', ['::ffff:203.0.113.0/120'], true],
    ['203.0.114.9', ['::ffff:203.0.113.0/120'], false],
    ['203.0.113.9', ['2001:db8::/32'], false],
    ['not-an-ip', ['0.0.0.0/0'], false],
  ])('%s in %j -> %s', (address, list, inside) => {
    expect(addressInRanges(address, parseCidrList(list))).toBe(inside)
  })

  it.each([
    '010.0.0.1/32', // octal to ipaddr.parse: would be 8.0.0.1
    '10/8', // would be 0.0.0.10/8
    '10.1/16',
    '0x0a.0.0.0/8',
    '167772161',
    '10.0.0.0/33',
    '2001:db8::/129',
    '10.0.0.0/8/8',
    '10.0.0.0/',
    '10.0.0.0/+8',
    'example.com',
    '',
  ])('refuses %j with validation_error naming the entry', (text) => {
    let err: ProblemError | undefined
    try {
      parseCidrList(['192.0.2.0/24', text])
    } catch (e) {
      err = e as ProblemError
    }
    expect(err?.code).toBe('validation_error')
    expect(err?.extras.errors?.[0]).toMatchObject({ path: '/1', code: 'invalid_cidr' })
  })
})

describe.each(TEST_DIALECTS)('403 ip_not_allowed over HTTP on %s', (dialect) => {
  let t: TestKernel
  let workspaces: WorkspaceService

  beforeAll(async () => {
    t = await startTestKernel({ dialect, env: AUTH_TEST_ENV })
    workspaces = t.kernel.container.cradle.workspaceService
  })
  afterAll(() => t.close())

  async function keyWith(ipAllowlist: string[] | null, workspaceAllowlist: string[] | null = null) {
    const { workspace } = await t.createWorkspace()
    if (workspaceAllowlist) await workspaces.setIpAllowlist(workspace.id, workspaceAllowlist)
    const { key } = await t.createKey({ workspaceId: workspace.id, mode: 'live', ipAllowlist })
    return key
  }

  const from = (key: string, remoteAddress: string) => getAccount(t, { key, remoteAddress })

  describe('key allowlist', () => {
    it('lets addresses inside an IPv4 range in and refuses the rest', async () => {
      const key = await keyWith(['198.51.100.0/24'])
      expect((await from(key, '198.51.100.77')).statusCode).toBe(200)
      const body = expectProblem(await from(key, '198.51.101.77'), 403, 'ip_not_allowed')
      expect(body.detail).toContain('198.51.101.77')
      expect(body.detail).toContain('key')
    })

    it('matches IPv6 ranges', async () => {
      const key = await keyWith(['2001:db8:abcd::/48'])
      expect((await from(key, '2001:db8:abcd:12::5')).statusCode).toBe(200)
      expectProblem(await from(key, '2001:db8:abce::5'), 403, 'ip_not_allowed')
      expectProblem(await from(key, '198.51.100.77'), 403, 'ip_not_allowed')
    })

    it('treats an IPv4-mapped IPv6 client address as its IPv4 address', async () => {
      const key = await keyWith(['198.51.100.0/24'])
      expect((await from(key, '::ffff:198.51.100.77')).statusCode).toBe(200)
      expectProblem(await from(key, '::ffff:198.51.101.77'), 403, 'ip_not_allowed')
    })

    it('matches a range written as IPv4-mapped IPv6 against plain IPv4 clients', async () => {
      const key = await keyWith(['::ffff:198.51.100.0/120'])
      expect((await from(key, '198.51.100.77')).statusCode).toBe(200)
      expectProblem(await from(key, '198.51.101.77'), 403, 'ip_not_allowed')
    })

    it('accepts a single address as its own range', async () => {
      const key = await keyWith(['198.51.100.7', '2001:db8::7'])
      expect((await from(key, '198.51.100.7')).statusCode).toBe(200)
      expect((await from(key, '2001:db8::7')).statusCode).toBe(200)
      expectProblem(await from(key, '198.51.100.8'), 403, 'ip_not_allowed')
    })

    it('puts no restriction on a key created with an empty list', async () => {
      const key = await keyWith([])
      expect((await from(key, '192.0.2.200')).statusCode).toBe(200)
    })

    it('checks the address only after the key itself', async () => {
      const key = await keyWith(['198.51.100.0/24'])
      expectProblem(await from(`${key.slice(0, -1)}!`, '192.0.2.1'), 401, 'invalid_api_key')
    })

    it('refuses (403, not 400) when a stored entry no longer reads, and still honours the others', async () => {
      const { workspace } = await t.createWorkspace()
      const { key, record } = await t.createKey({
        workspaceId: workspace.id,
        mode: 'live',
        ipAllowlist: ['198.51.100.0/24'],
      })
      // written before the stricter parsing: ipaddr would read it as 8.0.0.1
      await t.kernel.container.cradle.db.kysely
        .updateTable('api_keys')
        .set({ ip_allowlist: JSON.stringify(['010.0.0.1', '198.51.100.0/24']) })
        .where('id', '=', record.id)
        .execute()
      expectProblem(await from(key, '8.0.0.1'), 403, 'ip_not_allowed')
      expectProblem(await from(key, '10.0.0.1'), 403, 'ip_not_allowed')
      expect((await from(key, '198.51.100.3')).statusCode).toBe(200)
    })

    it('refuses to create a key with an unreadable range', async () => {
      const { workspace } = await t.createWorkspace()
      await expect(
        t.createKey({ workspaceId: workspace.id, mode: 'live', ipAllowlist: ['198.51.100.0/24', '10/8'] }),
      ).rejects.toMatchObject({ code: 'validation_error' })
    })
  })

  describe('workspace allowlist', () => {
    it('applies to every key of the workspace', async () => {
      const { workspace, liveKey, testKey } = await t.createWorkspace()
      await workspaces.setIpAllowlist(workspace.id, ['198.51.100.0/24', '2001:db8::/32'])
      for (const key of [liveKey, testKey]) {
        expect((await from(key, '198.51.100.1')).statusCode).toBe(200)
        expect((await from(key, '2001:db8::1')).statusCode).toBe(200)
        const body = expectProblem(await from(key, '192.0.2.1'), 403, 'ip_not_allowed')
        expect(body.detail).toContain('workspace')
      }
    })

    it('makes a key with its own list pass both lists', async () => {
      const key = await keyWith(['198.51.100.0/25'], ['198.51.100.0/24'])
      expect((await from(key, '198.51.100.10')).statusCode).toBe(200)
      // inside the workspace list, outside the key list
      expectProblem(await from(key, '198.51.100.200'), 403, 'ip_not_allowed')
      // inside neither
      expectProblem(await from(key, '192.0.2.10'), 403, 'ip_not_allowed')
    })

    it('is not widened by a key list that reaches beyond it', async () => {
      const key = await keyWith(['0.0.0.0/0'], ['198.51.100.0/24'])
      expect((await from(key, '198.51.100.10')).statusCode).toBe(200)
      expectProblem(await from(key, '192.0.2.10'), 403, 'ip_not_allowed')
    })

    it('takes effect on the next request and can be lifted', async () => {
      const { workspace, liveKey } = await t.createWorkspace()
      expect((await from(liveKey, '192.0.2.1')).statusCode).toBe(200)
      await workspaces.setIpAllowlist(workspace.id, ['198.51.100.0/24'])
      expectProblem(await from(liveKey, '192.0.2.1'), 403, 'ip_not_allowed')
      await workspaces.setIpAllowlist(workspace.id, null)
      expect((await from(liveKey, '192.0.2.1')).statusCode).toBe(200)
    })

    it('treats an empty list as no list rather than locking every key out', async () => {
      const { workspace, liveKey } = await t.createWorkspace()
      const updated = await workspaces.setIpAllowlist(workspace.id, [])
      expect(updated.ip_allowlist).toBeNull()
      expect((await from(liveKey, '192.0.2.1')).statusCode).toBe(200)
    })

    it('refuses an unreadable range and keeps the old list', async () => {
      const { workspace, liveKey } = await t.createWorkspace()
      await workspaces.setIpAllowlist(workspace.id, ['198.51.100.0/24'])
      await expect(workspaces.setIpAllowlist(workspace.id, ['010.0.0.0/8'])).rejects.toMatchObject({
        code: 'validation_error',
      })
      expect((await workspaces.get(workspace.id)).ip_allowlist).toEqual(['198.51.100.0/24'])
      expectProblem(await from(liveKey, '8.0.0.1'), 403, 'ip_not_allowed')
    })

    it('is set at creation too', async () => {
      const workspace = await workspaces.create({
        name: 'Locked',
        plan: 'scale',
        ipAllowlist: ['198.51.100.0/24'],
      })
      const { key } = await t.createKey({ workspaceId: workspace.id, mode: 'test' })
      expect((await from(key, '198.51.100.1')).statusCode).toBe(200)
      expectProblem(await from(key, '192.0.2.1'), 403, 'ip_not_allowed')
    })
  })

  it('believes no X-Forwarded-For without DOCSVC_TRUSTED_PROXIES', async () => {
    const key = await keyWith(['198.51.100.0/24'])
    const res = await getAccount(t, {
      key,
      remoteAddress: '192.0.2.1',
      headers: { 'x-forwarded-for': '198.51.100.1' },
    })
    expectProblem(res, 403, 'ip_not_allowed')
  })
})

describe.each(TEST_DIALECTS)('trusted proxies (DOCSVC_TRUSTED_PROXIES) on %s', (dialect) => {
  let t: TestKernel
  let key: string

  beforeAll(async () => {
    t = await startTestKernel({
      dialect,
      env: { ...AUTH_TEST_ENV, DOCSVC_TRUSTED_PROXIES: '10.0.0.0/8,fd00::/8' },
    })
    const { workspace } = await t.createWorkspace()
    key = (await t.createKey({ workspaceId: workspace.id, mode: 'live', ipAllowlist: ['198.51.100.0/24'] }))
      .key
  })
  afterAll(() => t.close())

  const via = (remoteAddress: string, forwardedFor?: string) =>
    getAccount(t, {
      key,
      remoteAddress,
      ...(forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : {}),
    })

  it('uses the forwarded client address from a trusted proxy', async () => {
    expect((await via('10.1.2.3', '198.51.100.9')).statusCode).toBe(200)
    expectProblem(await via('10.1.2.3', '192.0.2.9'), 403, 'ip_not_allowed')
    expect((await via('fd00::1', '198.51.100.9')).statusCode).toBe(200)
  })

  it('trusts a proxy reached over an IPv4-mapped IPv6 socket address', async () => {
    expect((await via('::ffff:10.1.2.3', '198.51.100.9')).statusCode).toBe(200)
  })

  it('walks back over trusted hops only', async () => {
    expect((await via('10.1.2.3', '198.51.100.9, 10.9.9.9')).statusCode).toBe(200)
    // a client-written entry before an untrusted hop is not believed
    expectProblem(await via('10.1.2.3', '198.51.100.9, 192.0.2.50'), 403, 'ip_not_allowed')
  })

  it('ignores X-Forwarded-For from an address that is not a trusted proxy', async () => {
    const res = await via('192.0.2.77', '198.51.100.9')
    const body = expectProblem(res, 403, 'ip_not_allowed')
    expect(body.detail).toContain('192.0.2.77')
  })

  it('uses the socket address when a trusted proxy sends no X-Forwarded-For', async () => {
    expectProblem(await via('10.1.2.3'), 403, 'ip_not_allowed')
  })
})
