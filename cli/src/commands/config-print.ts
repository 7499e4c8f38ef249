import { configReport } from '@docsvc/core'
import { BaseCommand } from '../base-command.ts'

export default class ConfigPrint extends BaseCommand {
  static override description =
    'Show the effective configuration, plugin settings and the chosen queue and file store, secrets masked'

  async run(): Promise<Record<string, unknown>> {
    const { flags } = await this.parse(ConfigPrint)
    const printable = await configReport(this.env(flags))
    if (!this.jsonEnabled()) {
      for (const [key, value] of Object.entries(printable)) this.log(`${key}: ${JSON.stringify(value)}`)
    }
    return printable
  }
}
