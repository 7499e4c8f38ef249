// The members feature's table (migration 0010-members in ./migrations), joined to the Database
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

declare module '../db/schema.ts' {
  interface Database {
    workspace_members: WorkspaceMemberTable
  }
}
