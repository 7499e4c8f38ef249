// The members feature's tables (migrations 0010-members and 0014-ended-ownerships in ./migrations), joined to the Database
// type. Other features reach members through MemberService, never here.

export interface WorkspaceMemberTable {
  id: string
  workspace_id: string
  /** lower case: one member per address and workspace */
  email: string
  role: string
  verified_at: string | null
  /**
   * The one verification link that is valid now (its random part); a new link replaces it and
   * opening it clears it, which makes each link one-time.
   */
  verification_nonce: string | null
  created_at: string
  updated_at: string
}

/** An owner member removed (migration 0014): counted by the free workspace limit for 30 days. */
export interface EndedOwnershipTable {
  workspace_id: string
  email: string
  /** the workspace's plan when the ownership ended */
  plan_id: string
  ended_at: string
}

/** One row per address or workspace, locked by the transactions the free workspace limit guards. */
export interface OwnerLimitLockTable {
  key: string
  locked_at: string
}

declare module '../db/schema.ts' {
  interface Database {
    workspace_members: WorkspaceMemberTable
    ended_ownerships: EndedOwnershipTable
    owner_limit_locks: OwnerLimitLockTable
  }
}
