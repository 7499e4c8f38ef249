import { loadConfig, startServer } from '@docsvc/core'
import { Flags } from '@oclif/core'
import { BaseCommand } from '../base-command.ts'

export default class Serve extends BaseCommand {
  static override description =
    'Start the API (and, by default, a worker in the same process); SIGTERM stops it cleanly'
  static override flags = {
    worker: Flags.boolean({ description: 'run a worker in this process', default: true, allowNo: true }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve)
    const config = loadConfig(this.env(flags))
    await startServer(config, flags.worker ? ['api', 'worker'] : ['api'], { json: this.jsonEnabled() })
    // the open port keeps the process alive; startServer's signal handlers end it
    await new Promise(() => {})
  }
}
