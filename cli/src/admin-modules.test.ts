import { readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, it } from 'vitest'
import { cliDatabase, cliJson, REPO_ROOT, runCli } from './cli-test-support.ts'

// Issue 14 / decision 0035: an admin command boots the kernel with the cli composition, which
// loads no HTTP framework, no renderer plugin and none of their heavy dependencies.
const FORBIDDEN_PACKAGES = [
  'fastify',
  'playwright',
  'playwright-core',
  'sharp',
  '@cantoo/pdf-lib',
  '@resvg/resvg-js',
  'liquidjs',
  'markdown-it',
]
const RECORDER = path.join(REPO_ROOT, 'cli', 'src', 'record-loaded-modules.fixture.ts')

it('docsvc key list --json prints the keys and loads no Fastify, Chromium or renderer dependency', async () => {
  const db = await cliDatabase('sqlite')
  try {
    const workspace = await cliJson<{ id: string }>(['workspace', 'create', '--name', 'Acme'], db.env)
    const key = await cliJson<{ id: string }>(
      ['key', 'create', '--workspace', workspace.id, '--name', 'ci', '--mode', 'live'],
      db.env,
    )
    const log = path.join(db.dataDir, 'modules.txt')
    const result = await runCli(['key', 'list', '--workspace', workspace.id, '--json'], {
      ...db.env,
      NODE_OPTIONS: `--import=${pathToFileURL(RECORDER).href}`,
      DOCSVC_TEST_MODULE_LOG: log,
    })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const keys = JSON.parse(result.stdout) as { id: string; name: string; workspace_id: string }[]
    expect(keys).toEqual([expect.objectContaining({ id: key.id, name: 'ci', workspace_id: workspace.id })])

    const urls = readFileSync(log, 'utf8').split('\n')
    // the recorder saw the command's own stack: an empty log would prove nothing
    expect(urls.some((url) => url.includes('/node_modules/@oclif/core/'))).toBe(true)
    expect(urls.some((url) => url.includes('/node_modules/better-sqlite3/'))).toBe(true)
    const forbidden = urls.filter((url) =>
      FORBIDDEN_PACKAGES.some((name) => url.includes(`/node_modules/${name}/`)),
    )
    expect(forbidden).toEqual([])
    // no renderer or input plugin's code at all (their manifests are the api/worker composition's)
    const pluginCode = urls.filter((url) =>
      url.startsWith(pathToFileURL(path.join(REPO_ROOT, 'plugins')).href),
    )
    expect(pluginCode).toEqual([])
  } finally {
    await db.cleanup()
  }
})
