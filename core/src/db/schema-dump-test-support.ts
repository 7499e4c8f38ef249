import { sql } from 'kysely'
import type { Db } from './database.ts'

/**
 * The schema a database holds, as text lines a test can compare with a recorded one: on SQLite
 * the DDL it keeps for each table and index (what the migration ran, byte for byte); on
 * PostgreSQL each column, constraint and index as the catalog describes it, with the test's own
 * schema name replaced so runs compare. Kysely's own migration tables are left out.
 */
export async function dumpSchema(db: Db): Promise<string[]> {
  return db.dialect === 'sqlite' ? dumpSqlite(db) : dumpPostgres(db)
}

const OWN_TABLES = /^docsvc_migrations/

async function dumpSqlite(db: Db): Promise<string[]> {
  const { rows } = await sql<{ type: string; name: string; table: string; ddl: string | null }>`
    select type, name, tbl_name as "table", sql as ddl from sqlite_master
    where name not like 'sqlite_%' order by type, tbl_name, name`.execute(db.kysely)
  return rows
    .filter((r) => !OWN_TABLES.test(r.table))
    .map((r) => `${r.type} ${r.table}.${r.name}: ${r.ddl ?? '(implicit)'}`)
}

async function dumpPostgres(db: Db): Promise<string[]> {
  const { rows: schemaRows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
    db.kysely,
  )
  const schema = schemaRows[0]?.schema ?? 'public'
  const { rows: columns } = await sql<{
    table: string
    column: string
    type: string
    nullable: string
    default: string | null
  }>`
    select table_name as "table", column_name as "column", data_type as type,
      is_nullable as nullable, column_default as default
    from information_schema.columns where table_schema = current_schema()
    order by table_name, ordinal_position`.execute(db.kysely)
  const { rows: constraints } = await sql<{ table: string; name: string; def: string }>`
    select cl.relname as "table", co.conname as name, pg_get_constraintdef(co.oid) as def
    from pg_constraint co join pg_class cl on cl.oid = co.conrelid
    where co.connamespace = current_schema()::regnamespace
    order by cl.relname, co.conname`.execute(db.kysely)
  const { rows: indexes } = await sql<{ table: string; name: string; def: string }>`
    select tablename as "table", indexname as name, indexdef as def from pg_indexes
    where schemaname = current_schema() order by tablename, indexname`.execute(db.kysely)
  const lines = [
    ...columns.map(
      (c) =>
        `column ${c.table}.${c.column}: ${c.type}${c.nullable === 'NO' ? ' not null' : ''}` +
        (c.default === null ? '' : ` default ${c.default}`),
    ),
    ...constraints.map((c) => `constraint ${c.table}.${c.name}: ${c.def}`),
    ...indexes.map((i) => `index ${i.table}.${i.name}: ${i.def}`),
  ]
  return lines
    .filter((line) => !OWN_TABLES.test(line.split(' ')[1] ?? ''))
    .map((line) => line.split(`${schema}.`).join('<schema>.'))
}
