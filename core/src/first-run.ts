import { sql } from 'kysely'
import type { Kernel } from './composition/create-kernel.ts'
import type { Db } from './db/database.ts'

export interface FirstRunResult {
  workspaceId: string
  testKey: string
  /** embedded mode only: a cluster's stdout ends up in shared log storage */
  liveKey: string | undefined
}

// pg_advisory_lock key ("docs" in ASCII): API replicas starting together on an empty cluster
// database must not each create a default workspace.
const FIRST_RUN_LOCK = 0x646f6373

/**
 * On an empty database: one default workspace with a test key, and in embedded mode a live key.
 * The keys exist only in this result (we keep hashes), so the caller prints them once. A cluster's
 * stdout is collected into log storage many can read, so no billable full-scope key is made
 * there: the banner tells how to create one with the CLI instead.
 */
export async function bootstrapFirstRun(kernel: Kernel): Promise<FirstRunResult | undefined> {
  if (!kernel.config.firstRun) return undefined
  const { workspaceService, apiKeyService } = kernel.container.cradle
  return underFirstRunLock(kernel.db, async () => {
    if ((await workspaceService.count()) > 0) return undefined
    // no address is known at first run: the installer holds the printed live key themselves, so
    // the default workspace renders live without a verified owner (docs/decisions/0090)
    const ws = await workspaceService.create({
      name: 'Default workspace',
      plan: 'scale',
      emailCheckWaived: true,
    })
    const test = await apiKeyService.create({ workspaceId: ws.id, mode: 'test', name: 'Default test key' })
    const live =
      kernel.config.mode === 'embedded'
        ? await apiKeyService.create({ workspaceId: ws.id, mode: 'live', name: 'Default live key' })
        : undefined
    return { workspaceId: ws.id, testKey: test.key, liveKey: live?.key }
  })
}

async function underFirstRunLock<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (db.dialect !== 'postgres') return fn()
  // a session lock on one pooled connection; fn() may use the others
  return db.kysely.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${FIRST_RUN_LOCK})`.execute(conn)
    try {
      return await fn()
    } finally {
      await sql`select pg_advisory_unlock(${FIRST_RUN_LOCK})`.execute(conn)
    }
  })
}

export function firstRunBanner(result: FirstRunResult, baseUrl: string): string {
  return [
    '',
    '  docsvc first run: created the workspace ' + result.workspaceId,
    '  These keys are shown once; store them now.',
    '',
    `    test key: ${result.testKey}`,
    ...(result.liveKey
      ? [`    live key: ${result.liveKey}`]
      : [
          '    live key: none in cluster mode (this output may be kept in shared logs); make one with',
          `      ${liveKeyCommand(result)}`,
        ]),
    '',
    '  Try it:',
    `    ${curlLine(result.testKey, baseUrl)}`,
    '',
  ].join('\n')
}

/** The same facts as one JSON line, for `serve --json` (stdout then carries only JSON). */
export function firstRunJson(result: FirstRunResult, baseUrl: string): string {
  return JSON.stringify({
    first_run: {
      workspace_id: result.workspaceId,
      test_key: result.testKey,
      ...(result.liveKey ? { live_key: result.liveKey } : { create_live_key: liveKeyCommand(result) }),
      url: baseUrl,
      curl: curlLine(result.testKey, baseUrl),
    },
  })
}

function liveKeyCommand(result: FirstRunResult): string {
  return `docsvc key create --workspace ${result.workspaceId} --mode live`
}

function curlLine(key: string, baseUrl: string): string {
  return `curl -H "Authorization: Bearer ${key}" ${baseUrl}/v1/account`
}
