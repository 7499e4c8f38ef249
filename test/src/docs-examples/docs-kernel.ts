import type { AddressInfo } from 'node:net'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../../core/src/testing/index.ts'

export interface DocsKernel {
  t: TestKernel
  ws: TestWorkspace
  /** what `$BASE` stands for in the examples */
  base: string
  /** the shell variables the examples may use: BASE, KEY, LIVE_KEY, WORKSPACE_ID, OPERATOR_TOKEN */
  env: Record<string, string>
}

const OPERATOR_TOKEN = 'docs-examples-operator-token-0123456789abcdef'

/**
 * The installation the docs' examples run against: the built-in plugins (real Chromium), an API
 * and a worker, listening on a local port so that curl reaches it as a reader's would. It may
 * fetch its own pages (the examples render /docs pages as their URL inputs) and the examples'
 * bursts are not rate-limited; names under example.com resolve to a public address.
 */
export async function startDocsKernel(): Promise<DocsKernel> {
  const t = await startTestKernel({
    roles: ['api', 'worker'],
    env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32', DOCSVC_OPERATOR_TOKEN: OPERATOR_TOKEN },
    // the examples' webhook receivers live under example.com, a public name
    resolver: async (host) => {
      if (host === 'example.com' || host.endsWith('.example.com'))
        return [{ address: '93.184.215.14', family: 4 }]
      throw Object.assign(new Error(`${host} not found`), { code: 'ENOTFOUND' })
    },
  })
  await t.kernel.app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = t.kernel.app.server.address() as AddressInfo
  const ws = await t.createWorkspace({ plan: 'growth' })
  await t.setPlanLimits('growth', { requests_per_second: 10_000, test_renders_per_minute: 10_000 })
  const base = `http://127.0.0.1:${port}`
  const env = {
    BASE: base,
    KEY: ws.testKey,
    LIVE_KEY: ws.liveKey,
    WORKSPACE_ID: ws.workspace.id,
    OPERATOR_TOKEN,
  }
  return { t, ws, base, env }
}
