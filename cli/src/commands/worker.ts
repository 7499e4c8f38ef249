import { loadConfig, startServer } from '@docsvc/core'
import { BaseCommand } from '../base-command.ts'

export default class Worker extends BaseCommand {
  static override description =
    'Start a worker process (no port) that runs queued jobs; SIGTERM stops it cleanly'

  async run(): Promise<void> {
    const { flags } = await this.parse(Worker)
    const config = loadConfig(this.env(flags))
    await startServer(config, ['worker'], { json: this.jsonEnabled() })
    // startServer keeps a worker-only process alive until SIGTERM/SIGINT
    await new Promise(() => {})
  }
}
