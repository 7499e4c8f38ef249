import { describe, expect, it } from 'vitest'
import { cliDatabase, cliJson, runCli, withApiKernel } from './cli-test-support.ts'

type Json = Record<string, unknown>
type Member = Json & { id: string; verification: { url: string; mailed: boolean } | null }

/** Opens a verification link the way the member's browser posts it, on the CLI's database. */
function openLink(env: Record<string, string>, url: string) {
  return withApiKernel(env, async (kernel) => {
    const res = await kernel.app.inject({ method: 'POST', url: new URL(url).pathname })
    return { status: res.statusCode, body: res.json() as Json }
  })
}

describe('member and workspace settings commands', () => {
  it('adds, lists, verifies and removes members; reads and changes settings', async () => {
    const db = await cliDatabase('sqlite')
    const env = db.env
    try {
      await cliJson(['migrate'], env)
      const ws = await cliJson<{ id: string }>(['workspace', 'create', '--name', 'Acme'], env)

      const added = await runCli(['member', 'add', '--workspace', ws.id, '--email', 'Ada@Example.com'], env)
      expect(added.code).toBe(0)
      expect(added.stdout).toMatch(/^added mem_\w+ \(ada@example\.com, owner\) to ws_/)
      expect(added.stdout).toContain('pass this verification link on to the member:')
      const link = added.stdout.match(/(http:\/\/\S+\/verify-email\/\S+)/)?.[1]
      expect(link).toBeDefined()

      // independent commands run side by side: each spawn costs seconds on a busy machine
      const [dev, set, badRole, nothing] = await Promise.all([
        cliJson<Member>(
          ['member', 'add', '--workspace', ws.id, '--email', 'dev@example.com', '--role', 'developer'],
          env,
        ),
        runCli(['workspace', 'settings', 'set', ws.id, '--allow-live-drafts', '--no-email-enabled'], env),
        runCli(['member', 'add', '--workspace', ws.id, '--email', 'x@example.com', '--role', 'boss'], env),
        runCli(['workspace', 'settings', 'set', ws.id], env),
      ])
      expect(dev).toMatchObject({ role: 'developer', verified: false, verification: { mailed: false } })
      expect(set.code).toBe(0)
      expect(set.stdout).toMatch(/allow_live_drafts +on\n/)
      expect(set.stdout).toMatch(/email_enabled +off\n/)
      expect(badRole.code).toBe(2)
      expect(badRole.stderr).toContain('Expected --role=boss to be one of: owner, admin, developer')
      expect(nothing.code).toBe(2)
      expect(nothing.stderr).toContain('name at least one setting')

      const [opened, newLink, refused, settings] = await Promise.all([
        openLink(env, link as string),
        cliJson<{ url: string; mailed: boolean }>(
          ['member', 'verify-link', '--workspace', ws.id, '--member', dev.id],
          env,
        ),
        runCli(['member', 'add', '--workspace', ws.id, '--email', 'ada@example.com', '--json'], env),
        cliJson(['workspace', 'settings', 'get', ws.id], env),
      ])
      expect(opened).toMatchObject({ status: 200, body: { status: 'verified', email: 'ada@example.com' } })
      expect(newLink).toMatchObject({ url: expect.stringContaining('/verify-email/'), mailed: false })
      expect(newLink.url).not.toBe(dev.verification?.url)
      expect(refused.code).toBe(1)
      expect(JSON.parse(refused.stdout).error).toMatchObject({
        code: 'conflict',
        message: expect.stringContaining('already a member'),
      })
      expect(settings).toEqual({
        allow_live_drafts: true,
        file_urls_in_webhooks: true,
        email_request_logging: true,
        zero_retention_default: false,
        email_enabled: false,
      })

      const [list, removed] = await Promise.all([
        runCli(['member', 'list', '--workspace', ws.id], env),
        runCli(['member', 'remove', '--workspace', ws.id, '--member', dev.id], env),
      ])
      expect(list.stdout).toMatch(/mem_\w+ {2}owner {5}verified \d{4}-\d\d-\d\dT\S+ {2}ada@example\.com/)
      expect(removed.stdout).toMatch(/^removed mem_\w+ \(dev@example\.com\) from ws_/)
      const gone = await runCli(['member', 'remove', '--workspace', ws.id, '--member', dev.id, '--json'], env)
      expect(gone.code).toBe(1)
      // admin commands name the database they looked in (decision 0050)
      const error = JSON.parse(gone.stdout).error
      expect(error.code).toBe('not_found')
      expect(error.message).toBe(
        `not_found: workspace ${ws.id} has no member ${dev.id} (looked in the SQLite database ${env.DOCSVC_DATA_DIR}/docsvc.sqlite)`,
      )
    } finally {
      await db.cleanup()
    }
  }, 240_000)
})
