import { ConfigError, PluginBootError, ProblemError } from '@docsvc/core'
import { Command, Flags } from '@oclif/core'
import { DatabaseNotFoundError } from './admin-context.ts'

interface Failure {
  code: string
  message: string
  exit: number
  errors?: unknown[]
}

type CommandError = Error & { exitCode?: number; oclif?: { exit?: number }; code?: unknown }

/** Shared by every command: --json output and one way to report failures. */
export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true

  static override baseFlags = {
    'config-file': Flags.string({ description: 'JSON config file (same as DOCSVC_CONFIG_FILE)' }),
  }

  protected env(flags: { 'config-file'?: string | undefined }): NodeJS.ProcessEnv {
    return flags['config-file'] ? { ...process.env, DOCSVC_CONFIG_FILE: flags['config-file'] } : process.env
  }

  /**
   * Known failures exit non-zero with one readable line on stderr; with --json, stdout also
   * carries `{"error": {"code", "message"}}` so scripts can branch on the code.
   */
  protected override async catch(err: CommandError): Promise<unknown> {
    if (err.code === 'EEXIT') return super.catch(err)
    const failure = describeFailure(err)
    if (this.jsonEnabled()) {
      process.exitCode = failure.exit
      const { exit: _exit, ...error } = failure
      this.logJson({ error })
      process.stderr.write(`Error: ${failure.message}\n`)
      return undefined
    }
    // parse errors keep oclif's help hint; unexpected errors keep their stack
    if (failure.code === 'invalid_arguments' || failure.code === 'failed') return super.catch(err)
    this.error(failure.message, { exit: failure.exit })
  }
}

function describeFailure(err: CommandError): Failure {
  if (err instanceof ConfigError) return { code: 'config_error', message: err.message, exit: 2 }
  if (err instanceof PluginBootError) return { code: 'plugin_error', message: err.message, exit: 2 }
  if (err instanceof DatabaseNotFoundError)
    return { code: 'database_not_found', message: err.message, exit: 2 }
  if (err instanceof ProblemError) {
    const errors = err.extras.errors
    return {
      code: err.code,
      message: `${err.code}: ${err.detail ?? err.message}`,
      exit: 1,
      ...(errors && errors.length > 0 ? { errors } : {}),
    }
  }
  // oclif's own parse errors (unknown flag, bad option) carry exit 2
  if (err.oclif?.exit === 2) {
    return {
      code: 'invalid_arguments',
      message: err.message.replace(/\nSee more help with --help$/, ''),
      exit: 2,
    }
  }
  return { code: 'failed', message: err.message || err.name, exit: err.oclif?.exit ?? err.exitCode ?? 1 }
}
