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
})
