import { afterEach, describe, expect, it } from 'vitest'
import { bootstrapFirstRun, firstRunBanner, firstRunJson } from './first-run.ts'

import { startTestKernel, TEST_DIALECTS, type TestKernel } from './testing/index.ts'

const BASE = 'http://localhost:3000'
const kernels: TestKernel[] = []
afterEach(async () => {
  // the first kernel owns the data dir and schema; close it last
  for (const k of kernels.splice(0).reverse()) await k.close()
})

describe.each(TEST_DIALECTS)('first run on %s', (dialect) => {
  it('is off when DOCSVC_FIRST_RUN=false', async () => {
    const tk = await startTestKernel({ dialect })
    kernels.push(tk)
    expect(await bootstrapFirstRun(tk.kernel)).toBeUndefined()
  })
})

describe('first run in embedded mode (SQLite)', () => {
  it('creates one workspace with a test and a live key, once, and prints both', async () => {
    const tk = await startTestKernel({ dialect: 'sqlite', env: { DOCSVC_FIRST_RUN: 'true' } })
    kernels.push(tk)
    const first = await bootstrapFirstRun(tk.kernel)
    if (!first?.liveKey) throw new Error('expected a first run with a live key')
    expect(first.testKey).toMatch(/^doc_test_/)
    expect(first.liveKey).toMatch(/^doc_live_/)
    expect(await bootstrapFirstRun(tk.kernel)).toBeUndefined()
    const account = await tk.inject({ method: 'GET', url: '/v1/account', key: first.liveKey })
    expect(account.statusCode).toBe(200)
    // no address is known at first run: its live key renders without a verified owner
    const { workspaceService, memberService } = tk.kernel.container.cradle
    const ws = await workspaceService.get(first.workspaceId)
    expect(ws.email_check_waived).toBe(true)
    await expect(memberService.requireVerifiedEmail(ws)).resolves.toBeUndefined()
    expect(firstRunBanner(first, BASE)).toContain(`live key: ${first.liveKey}`)
    expect(JSON.parse(firstRunJson(first, BASE)).first_run.live_key).toBe(first.liveKey)
  })
})

describe('first run in cluster mode (PostgreSQL)', () => {
  it('makes no live key, prints none and tells how to create one with the CLI', async () => {
    const tk = await startTestKernel({ dialect: 'postgres', env: { DOCSVC_FIRST_RUN: 'true' } })
    kernels.push(tk)
    expect(tk.kernel.config.mode).toBe('cluster')
    const first = await bootstrapFirstRun(tk.kernel)
    if (!first) throw new Error('expected a first run')
    expect(first.testKey).toMatch(/^doc_test_/)
    expect(first.liveKey).toBeUndefined()
    const keys = await tk.kernel.container.cradle.apiKeyService.list(first.workspaceId)
    expect(keys.map((k) => k.mode)).toEqual(['test'])
    const command = `docsvc key create --workspace ${first.workspaceId} --mode live`
    for (const text of [firstRunBanner(first, BASE), firstRunJson(first, BASE)]) {
      expect(text).not.toMatch(/doc_live_/)
      expect(text).toContain(command)
    }
    expect(JSON.parse(firstRunJson(first, BASE)).first_run).toMatchObject({
      test_key: first.testKey,
      create_live_key: command,
    })
  })
})

describe('first run on postgres with replicas starting together', () => {
  it('makes exactly one default workspace', async () => {
    const env = { DOCSVC_FIRST_RUN: 'true' }
    const a = await startTestKernel({ dialect: 'postgres', env })
    kernels.push(a)
    const others = await Promise.all(
      [1, 2, 3].map(() => startTestKernel({ dialect: 'postgres', env, pgSchema: a.pgSchema as string })),
    )
    kernels.push(...others)
    const results = await Promise.all([a, ...others].map((k) => bootstrapFirstRun(k.kernel)))
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await a.kernel.container.cradle.workspaceRepository.count()).toBe(1)
  })
})
