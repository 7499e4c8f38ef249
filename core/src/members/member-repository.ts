import type { Kysely } from 'kysely'
import type { Db } from '../db/database.ts'
import type { Database } from '../db/schema.ts'
import type { Member, MemberRole } from './member.ts'
import type { WorkspaceMemberTable } from './member-tables.ts'

function toMember(row: WorkspaceMemberTable): Member {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    email: row.email,
    role: row.role as MemberRole,
    verified: row.verified_at !== null,
    verified_at: row.verified_at,
    created_at: row.created_at,
  }
}

/** Methods taking `db` run in the transaction given (the free workspace limit's, decision 0099). */
export class MemberRepository {
  readonly #db: Db
  constructor({ db }: { db: Db }) {
    this.#db = db
  }

  /** false when the workspace has that address already (the unique index decides, also under races) */
  async insert(member: Member, db: Kysely<Database> = this.#db.kysely): Promise<boolean> {
    const result = await db
      .insertInto('workspace_members')
      .values({
        id: member.id,
        workspace_id: member.workspace_id,
        email: member.email,
        role: member.role,
        verified_at: member.verified_at,
        verification_nonce: null,
        created_at: member.created_at,
        updated_at: member.created_at,
      })
      .onConflict((oc) => oc.columns(['workspace_id', 'email']).doNothing())
      .executeTakeFirst()
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
  }

  async get(id: string): Promise<Member | undefined> {
    const row = await this.#db.kysely
      .selectFrom('workspace_members')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? toMember(row) : undefined
  }

  async list(workspaceId: string, db: Kysely<Database> = this.#db.kysely): Promise<Member[]> {
    const rows = await db
      .selectFrom('workspace_members')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('id')
      .execute()
    return rows.map(toMember)
  }

  async remove(id: string, db: Kysely<Database> = this.#db.kysely): Promise<boolean> {
    const result = await db.deleteFrom('workspace_members').where('id', '=', id).executeTakeFirst()
    return Number(result.numDeletedRows) === 1
  }

  /** whether the workspace has a member of this role (a verified one, with `verifiedOnly`) */
  async has(
    workspaceId: string,
    role: MemberRole,
    verifiedOnly: boolean,
    db: Kysely<Database> = this.#db.kysely,
  ): Promise<boolean> {
    let query = db
      .selectFrom('workspace_members')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('role', '=', role)
    if (verifiedOnly) query = query.where('verified_at', 'is not', null)
    return (await query.executeTakeFirst()) !== undefined
  }

  /** whether `nonce` is the member's current link's (a peek: the link stays usable) */
  async hasNonce(id: string, nonce: string): Promise<boolean> {
    const row = await this.#db.kysely
      .selectFrom('workspace_members')
      .select('id')
      .where('id', '=', id)
      .where('verification_nonce', '=', nonce)
      .executeTakeFirst()
    return row !== undefined
  }

  async setNonce(id: string, nonce: string, at: string): Promise<void> {
    await this.#db.kysely
      .updateTable('workspace_members')
      .set({ verification_nonce: nonce, updated_at: at })
      .where('id', '=', id)
      .execute()
  }

  /**
   * Marks the member verified if `nonce` is still its link's: one statement, so of two requests
   * opening the same link only one succeeds.
   */
  async verifyWithNonce(id: string, nonce: string, at: string): Promise<boolean> {
    const result = await this.#db.kysely
      .updateTable('workspace_members')
      .set({ verified_at: at, verification_nonce: null, updated_at: at })
      .where('id', '=', id)
      .where('verification_nonce', '=', nonce)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  /** The operator vouches for the address (test kit, tooling): no link needed. */
  async markVerified(id: string, at: string): Promise<void> {
    await this.#db.kysely
      .updateTable('workspace_members')
      .set({ verified_at: at, verification_nonce: null, updated_at: at })
      .where('id', '=', id)
      .execute()
  }
}
