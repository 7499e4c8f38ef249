import {
  type Config,
  createKernel,
  createLogger,
  databaseExists,
  describeDatabase,
  type Kernel,
  loadConfig,
  ProblemError,
} from '@docsvc/core'

/** An admin command pointed at a place with no docsvc database: it never makes one there. */
export class DatabaseNotFoundError extends Error {
  constructor(config: Config) {
    const found = config.databaseUrl
      ? `the ${describeDatabase(config)} has no docsvc tables`
      : `there is no ${describeDatabase(config)} (DOCSVC_DATA_DIR is ${config.dataDir})`
    super(
      `No docsvc database: ${found}. Admin commands work on the server's database and never create one: ` +
        "set DOCSVC_DATA_DIR to the server's data directory, or DOCSVC_DATABASE_URL to its PostgreSQL database " +
        '(or pass --config-file). To set up a new database, run `docsvc migrate` or start the server once.',
    )
    this.name = 'DatabaseNotFoundError'
  }
}

/**
 * The services behind admin commands: same config and database as the server. No server role
 * is the cli composition (core/src/composition/create-kernel.ts): no HTTP app, no worker loops,
 * no renderer plugin loaded (docs/decisions/0035). The database must exist already, and what a
 * command does not find is reported with the database it looked in.
 */
export async function withKernel<T>(env: NodeJS.ProcessEnv, fn: (kernel: Kernel) => Promise<T>): Promise<T> {
  const config = loadConfig({ ...env, DOCSVC_LOG_LEVEL: env.DOCSVC_LOG_LEVEL ?? 'warn' })
  if (!(await databaseExists(config))) throw new DatabaseNotFoundError(config)
  const kernel = await createKernel({
    config,
    roles: [],
    env,
    logger: createLogger(config.logLevel, 'stderr'),
  })
  try {
    return await fn(kernel)
  } catch (err) {
    if (err instanceof ProblemError && err.code === 'not_found') {
      throw new ProblemError(
        err.code,
        `${err.detail ?? err.message} (looked in the ${describeDatabase(config)})`,
        err.extras,
      )
    }
    throw err
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
