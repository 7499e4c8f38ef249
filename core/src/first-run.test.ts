import { afterEach, describe, expect, it } from 'vitest'
import { bootstrapFirstRun } from './first-run.ts'
import { startTestKernel, TEST_DIALECTS, type TestKernel } from './testing/index.ts'

const kernels: TestKernel[] = []
afterEach(async () => {
  // the first kernel owns the data dir and schema; close it last
  for (const k of kernels.splice(0).reverse()) await k.close()
})

describe.each(TEST_DIALECTS)('first run on %s', (dialect) => {
  it('creates one workspace with a test and a live key, once', async () => {
    const tk = await startTestKernel({ dialect, env: { DOCSVC_FIRST_RUN: 'true' } })
    kernels.push(tk)
    const first = await bootstrapFirstRun(tk.kernel)
    if (!first) throw new Error('expected a first run')
    expect(first.testKey).toMatch(/^doc_test_/)
    expect(first.liveKey).toMatch(/^doc_live_/)
    expect(await bootstrapFirstRun(tk.kernel)).toBeUndefined()
    const account = await tk.inject({ method: 'GET', url: '/v1/account', key: first.liveKey })
    expect(account.statusCode).toBe(200)
  })

  it('is off when DOCSVC_FIRST_RUN=false', async () => {
    const tk = await startTestKernel({ dialect })
    kernels.push(tk)
    expect(await bootstrapFirstRun(tk.kernel)).toBeUndefined()
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
