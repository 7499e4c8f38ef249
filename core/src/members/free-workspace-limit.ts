import type { Kysely } from 'kysely'
import type { Db } from '../db/database.ts'
import { nowIso } from '../db/json-columns.ts'
import type { Database } from '../db/schema.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import type { WorkspaceService } from '../workspaces/workspace-service.ts'

/** SPEC 7.3: the plan a person may own only a few workspaces on, and how many. */
export const FREE_PLAN_ID = 'free'
export const FREE_WORKSPACES_PER_PERSON = 2
/** SPEC 7.3: a workspace its owner left (or that was taken over) still counts this long */
export const ENDED_OWNERSHIP_DAYS = 30

/**
 * SPEC 7.3's 402 `free_workspace_limit` (docs/decisions/0099): a person (an owner member's
 * address) owns at most two Free workspaces, counting the Free workspaces they stopped owning
 * in the last 30 days. Every way to become the owner of a Free workspace (a workspace made with
 * its owner, an owner added, a plan changed to Free) runs its writes in `transaction`, takes
 * `lock` on the workspace and the addresses, and calls `check` before it stores anything: the
 * lock rows make two such transactions for one address wait for each other, so two parallel
 * creations cannot both pass the count.
 */
export class FreeWorkspaceLimit {
  readonly #db: Db
  readonly #workspaces: Pick<WorkspaceService, 'onPlan'>
  constructor(deps: { db: Db; workspaceService: Pick<WorkspaceService, 'onPlan'> }) {
    this.#db = deps.db
    this.#workspaces = deps.workspaceService
  }

  transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.#db.kysely.transaction().execute(work)
  }

  /**
   * Locks one row per key until the transaction ends (PostgreSQL: the row lock of the upsert;
   * SQLite: the write lock the first write takes). Keys are locked in sorted order, so two
   * transactions locking overlapping sets cannot deadlock.
   */
  async lock(trx: Kysely<Database>, keys: { workspaceId?: string; emails?: string[] }): Promise<void> {
    const rows = [
      ...(keys.workspaceId === undefined ? [] : [`workspace:${keys.workspaceId}`]),
      ...[...new Set(keys.emails ?? [])].sort().map((email) => `email:${email}`),
    ]
    for (const key of rows) {
      const at = nowIso()
      await trx
        .insertInto('owner_limit_locks')
        .values({ key, locked_at: at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ locked_at: at }))
        .execute()
    }
  }

  /**
   * 402 `free_workspace_limit` when `email` already owns two Free workspaces other than
   * `workspaceId` (the one it is about to own), or left them less than 30 days ago. Call it
   * inside `transaction`, after `lock`, and only when the workspace is or becomes Free.
   */
  async check(trx: Kysely<Database>, email: string, workspaceId: string | null): Promise<void> {
    const counted = await this.#counted(trx, email)
    if (workspaceId !== null) counted.delete(workspaceId)
    if (counted.size < FREE_WORKSPACES_PER_PERSON) return
    throw new ProblemError(
      'free_workspace_limit',
      `${email} already owns ${counted.size} Free workspaces (${[...counted].sort().join(', ')}); ` +
        `a person may own at most ${FREE_WORKSPACES_PER_PERSON}, counting the ones they stopped owning in the last ${ENDED_OWNERSHIP_DAYS} days. ` +
        'Choose another plan, or another owner.',
    )
  }

  /**
   * The Free workspaces the address owns now (any status: a suspended workspace still exists)
   * and the ones it stopped owning within the window, as this transaction sees them.
   */
  async #counted(trx: Kysely<Database>, email: string): Promise<Set<string>> {
    const owns = await trx
      .selectFrom('workspace_members')
      .select('workspace_id')
      .where('email', '=', email)
      .where('role', '=', 'owner')
      .execute()
    const owned = await this.#workspaces.onPlan(
      owns.map((r) => r.workspace_id),
      FREE_PLAN_ID,
      trx,
    )
    const since = new Date(Date.now() - ENDED_OWNERSHIP_DAYS * 86_400_000).toISOString()
    const ended = await trx
      .selectFrom('ended_ownerships')
      .select('workspace_id')
      .where('email', '=', email)
      .where('plan_id', '=', FREE_PLAN_ID)
      .where('ended_at', '>=', since)
      .execute()
    return new Set([...owned, ...ended.map((r) => r.workspace_id)])
  }

  /** Records that `email` stopped owning the workspace (on `planId`), inside the removal's transaction. */
  async recordEnd(
    trx: Kysely<Database>,
    end: { workspaceId: string; email: string; planId: string },
  ): Promise<void> {
    await trx
      .insertInto('ended_ownerships')
      .values({ workspace_id: end.workspaceId, email: end.email, plan_id: end.planId, ended_at: nowIso() })
      .execute()
  }
}
