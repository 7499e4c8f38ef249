import type { Kysely } from 'kysely'

// Placeholder: the feature fills this migration in.
export async function up(_db: Kysely<unknown>): Promise<void> {}
