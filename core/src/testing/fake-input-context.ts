import type { InputContext, RenderWarningCode } from '../sdk/render-contracts.ts'

/** An InputContext for input plugin tests: records warnings, refuses to fetch. */
export function fakeInputContext(data: Record<string, unknown> = {}): {
  ctx: InputContext
  warnings: RenderWarningCode[]
} {
  const warnings: RenderWarningCode[] = []
  const ctx: InputContext = {
    renderId: 'rnd_test',
    workspaceId: 'ws_test',
    test: true,
    signal: new AbortController().signal,
    warn: (code) => warnings.push(code),
    log: () => {},
    data,
    fetch: () => Promise.reject(new Error('no fetch in these tests')),
  }
  return { ctx, warnings }
}
