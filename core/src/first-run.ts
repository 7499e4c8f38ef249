import type { Kernel } from './kernel/kernel.ts'

export interface FirstRunResult {
  workspaceId: string
  testKey: string
  liveKey: string
}

/**
 * On an empty database: one default workspace with a test and a live key. The keys exist only
 * in this result (we keep hashes), so the caller prints them once.
 */
export async function bootstrapFirstRun(kernel: Kernel): Promise<FirstRunResult | undefined> {
  if (!kernel.config.firstRun) return undefined
  const { workspaceRepository, workspaceService, apiKeyService } = kernel.container.cradle
  if ((await workspaceRepository.count()) > 0) return undefined
  const ws = await workspaceService.create({ name: 'Default workspace', plan: 'scale' })
  const test = await apiKeyService.create({ workspaceId: ws.id, mode: 'test', name: 'Default test key' })
  const live = await apiKeyService.create({ workspaceId: ws.id, mode: 'live', name: 'Default live key' })
  return { workspaceId: ws.id, testKey: test.key, liveKey: live.key }
}

export function firstRunBanner(result: FirstRunResult, baseUrl: string): string {
  return [
    '',
    '  docsvc first run: created the workspace ' + result.workspaceId,
    '  These keys are shown once; store them now.',
    '',
    `    test key: ${result.testKey}`,
    `    live key: ${result.liveKey}`,
    '',
    '  Try it:',
    `    curl -H "Authorization: Bearer ${result.testKey}" ${baseUrl}/v1/account`,
    '',
  ].join('\n')
}
