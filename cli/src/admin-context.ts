import { createKernel, createLogger, type Kernel, loadConfig } from '@docsvc/core'

/**
 * The services behind admin commands: same config and database as the server. No server role
 * is the cli composition (core/src/composition/create-kernel.ts): no HTTP app, no worker loops,
 * no renderer plugin loaded (docs/decisions/0035).
 */
export async function withKernel<T>(env: NodeJS.ProcessEnv, fn: (kernel: Kernel) => Promise<T>): Promise<T> {
  const config = loadConfig({ ...env, DOCSVC_LOG_LEVEL: env.DOCSVC_LOG_LEVEL ?? 'warn' })
  const kernel = await createKernel({
    config,
    roles: [],
    env,
    logger: createLogger(config.logLevel, 'stderr'),
  })
  try {
    return await fn(kernel)
  } finally {
    await kernel.close()
  }
}

export function splitList(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
}
