import { sql } from 'kysely'
import type { TestKernel } from './test-kernel.ts'

/**
 * Every row of every table of a test kernel's database (its own schema on PostgreSQL) as one
 * text, byte columns read as Latin-1: what a reader of the database or a backup would see.
 * Tests search it for strings that must never be stored.
 */
export async function storedText(t: TestKernel): Promise<string> {
  const { kysely } = t.kernel.db
  const tables = (await kysely.introspection.getTables()).filter(
    (table) => !t.pgSchema || table.schema === t.pgSchema,
  )
  const parts: string[] = []
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(
      kysely,
    )
    for (const row of rows) {
      const cells = Object.values(row).map((v) =>
        Buffer.isBuffer(v) || v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : String(v),
      )
      parts.push(`${table.name}: ${cells.join(' | ')}`)
    }
  }
  return parts.join('\n')
}
