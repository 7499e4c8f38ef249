import { loadConfig, migrateToLatest, openDatabase } from '@docsvc/core'
import { BaseCommand } from '../base-command.ts'

export default class Migrate extends BaseCommand {
  static override description = 'Bring the database schema up to date'

  async run(): Promise<{ applied: string[]; mode: string }> {
    const { flags } = await this.parse(Migrate)
    const config = loadConfig(this.env(flags))
    const db = openDatabase(config)
    try {
      const { applied } = await migrateToLatest(db)
      this.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'schema is up to date')
      return { applied, mode: config.mode }
    } finally {
      await db.close()
    }
  }
}
