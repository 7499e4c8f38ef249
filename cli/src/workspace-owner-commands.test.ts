import { describe, expect, it } from 'vitest'
import { withKernel } from './admin-context.ts'
import { cliDatabase, cliJson, runCli, withApiKernel } from './cli-test-support.ts'

// `docsvc workspace create --owner-email` and `docsvc workspace clear-email-exemption`
// (docs/decisions/0095), on the CLI's own database.

/** A live render on the CLI's database, as the API answers it (queued: no worker runs here). */
function renderLive(env: Record<string, string>, workspaceId: string) {
  return withApiKernel(env, async (kernel) => {
    const { key } = await kernel.container.cradle.apiKeyService.create({ workspaceId, mode: 'live' })
    const res = await kernel.app.inject({
      method: 'POST',
      url: '/v1/renders',
      headers: { authorization: `Bearer ${key}` },
      payload: { mode: 'async', input: { type: 'html', html: 'x' } },
    })
    return { status: res.statusCode, code: res.json().code as string | undefined }
  })
}

describe('workspace owner and email-check exemption commands', () => {
  it('creates a workspace with its owner, refuses an address that is not one, and ends an exemption', async () => {
    const db = await cliDatabase('sqlite')
    const env = db.env
    try {
      // an exempt workspace, as an upgraded installation's old ones are
      const exempt = await withKernel(env, (k) =>
        k.container.cradle.workspaceService.create({ name: 'Old', emailCheckWaived: true }),
      )
      // independent commands run side by side: each spawn costs seconds on a busy machine
      const [text, json, bad, cleared] = await Promise.all([
        runCli(['workspace', 'create', '--name', 'Acme', '--owner-email', 'Ada@Example.com'], env),
        cliJson<Record<string, unknown> & { id: string; owner: Record<string, unknown> }>(
          ['workspace', 'create', '--name', 'Beta', '--plan', 'starter', '--owner-email', 'bo@example.com'],
          env,
        ),
        runCli(
          ['workspace', 'create', '--name', 'Gamma', '--owner-email', 'gamma-at-example.com', '--json'],
          env,
        ),
        runCli(['workspace', 'clear-email-exemption', exempt.id], env),
      ])
      expect(text.code, text.stderr).toBe(0)
      expect(text.stdout).toMatch(/^created ws_\w+ \(Acme, plan free\)\n/)
      expect(text.stdout).toMatch(/owner mem_\w+ \(ada@example\.com\), not verified yet/)
      expect(text.stdout).toContain('pass this verification link on to the member:')
      expect(text.stdout).toMatch(/http:\/\/\S+\/verify-email\/\S+/)
      expect(json).toMatchObject({
        name: 'Beta',
        plan_id: 'starter',
        email_check_waived: false,
        owner: {
          workspace_id: json.id,
          email: 'bo@example.com',
          role: 'owner',
          verified: false,
          verification: { url: expect.stringContaining('/verify-email/'), mailed: false },
        },
      })

      expect(bad.code).toBe(1)
      expect(bad.stderr).toContain(
        'validation_error: /owner_email: "gamma-at-example.com" is not an email address',
      )
      expect(JSON.parse(bad.stdout).error).toMatchObject({
        code: 'validation_error',
        errors: [{ path: '/owner_email', code: 'format' }],
      })
      expect(cleared.code, cleared.stderr).toBe(0)
      expect(cleared.stdout).toContain(`${exempt.id} is no longer exempt from the email check`)
      expect(cleared.stdout).toContain('live renders answer 403 email_not_verified')

      const [list, members, again, unknown] = await Promise.all([
        cliJson<{ name: string }[]>(['workspace', 'list'], env),
        cliJson<{ email: string; role: string }[]>(['member', 'list', '--workspace', json.id], env),
        cliJson(['workspace', 'clear-email-exemption', exempt.id], env),
        runCli(['workspace', 'clear-email-exemption', 'ws_00000000000000000000'], env),
      ])
      // the refused address left no workspace behind
      expect(list.map((w) => w.name).sort()).toEqual(['Acme', 'Beta', 'Old'])
      expect(members).toEqual([expect.objectContaining({ email: 'bo@example.com', role: 'owner' })])
      expect(again).toMatchObject({ id: exempt.id, email_check_waived: false, verified_owner: false })
      expect(unknown.code).toBe(1)
      expect(unknown.stderr).toContain('not_found: workspace ws_00000000000000000000 does not exist')

      // after clearing, a live key of the workspace without a verified owner is refused
      expect(await renderLive(env, exempt.id)).toEqual({ status: 403, code: 'email_not_verified' })
    } finally {
      await db.cleanup()
    }
  }, 120_000)

  // SPEC 7.3's free workspace limit (docs/decisions/0099) on the CLI's paths to a Free owner
  it('refuses a third Free workspace, owner or move to Free for one address with exit 1', async () => {
    const db = await cliDatabase('sqlite')
    const env = db.env
    try {
      const made = await Promise.all(
        ['One', 'Two'].map((name) =>
          cliJson<{ id: string }>(
            ['workspace', 'create', '--name', name, '--owner-email', 'ada@example.com'],
            env,
          ),
        ),
      )
      const { free, paid } = await withKernel(env, async (k) => {
        const { workspaceService, memberService } = k.container.cradle
        const paid = await workspaceService.create({ name: 'Paid', plan: 'starter' })
        await memberService.add({ workspaceId: paid.id, email: 'ada@example.com', role: 'owner' })
        return { free: await workspaceService.create({ name: 'Free' }), paid }
      })
      const [third, thirdJson, owner, setPlan] = await Promise.all([
        runCli(['workspace', 'create', '--name', 'Three', '--owner-email', 'Ada@example.com'], env),
        runCli(['workspace', 'create', '--name', 'Three', '--owner-email', 'ada@example.com', '--json'], env),
        runCli(
          ['member', 'add', '--workspace', free.id, '--email', 'ada@example.com', '--role', 'owner'],
          env,
        ),
        runCli(['workspace', 'set-plan', paid.id, 'free'], env),
      ])
      // oclif wraps the message over lines starting with ›
      const message = (stderr: string) => stderr.replace(/\s*›\s*/g, ' ').replace(/\s+/g, ' ')
      for (const refused of [third, thirdJson, owner, setPlan]) {
        expect(refused.code, refused.stdout).toBe(1)
        expect(message(refused.stderr)).toContain(
          'free_workspace_limit: ada@example.com already owns 2 Free workspaces',
        )
        expect(message(refused.stderr)).toContain('a person may own at most 2')
      }
      for (const { id } of made) expect(message(third.stderr)).toContain(id)
      expect(JSON.parse(thirdJson.stdout).error).toMatchObject({ code: 'free_workspace_limit' })
      const [list, members] = await Promise.all([
        cliJson<{ id: string; name: string; plan_id: string }[]>(['workspace', 'list'], env),
        cliJson<unknown[]>(['member', 'list', '--workspace', free.id], env),
      ])
      // nothing was stored: no third workspace, no owner, the plan unchanged
      expect(list.map((w) => w.name).sort()).toEqual(['Free', 'One', 'Paid', 'Two'])
      expect(list.find((w) => w.id === paid.id)?.plan_id).toBe('starter')
      expect(members).toEqual([])
    } finally {
      await db.cleanup()
    }
  }, 120_000)
})
