import { ConfigError, PluginBootError, ProblemError } from '@docsvc/core'
import { Command, Flags } from '@oclif/core'

/** Shared by every command: --json output and one way to report failures. */
export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true

  static override baseFlags = {
    'config-file': Flags.string({ description: 'JSON config file (same as DOCSVC_CONFIG_FILE)' }),
  }

  protected env(flags: { 'config-file'?: string | undefined }): NodeJS.ProcessEnv {
    return flags['config-file'] ? { ...process.env, DOCSVC_CONFIG_FILE: flags['config-file'] } : process.env
  }

  protected override async catch(err: Error & { exitCode?: number }): Promise<unknown> {
    if (err instanceof ConfigError || err instanceof PluginBootError) this.error(err.message, { exit: 2 })
    if (err instanceof ProblemError) this.error(`${err.code}: ${err.detail ?? err.message}`, { exit: 1 })
    return super.catch(err)
  }
}
