import type { Kysely } from 'kysely'

/**
 * Live rendering now needs a verified owner (the members feature). `email_verified` was a flag
 * nothing cleared: every existing workspace has 1 there, and keeps rendering live as before, now
 * as an exemption (docs/decisions/0090). New workspaces are created without it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workspaces').renameColumn('email_verified', 'email_check_waived').execute()
}
