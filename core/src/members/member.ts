/** SPEC 5.4 names the roles: Owners and Admins manage all keys, Developers their own. */
export const MEMBER_ROLES = ['owner', 'admin', 'developer'] as const
export type MemberRole = (typeof MEMBER_ROLES)[number]

/** A person of a workspace, by email address; verified once they opened their link. */
export interface Member {
  id: string
  workspace_id: string
  email: string
  role: MemberRole
  verified: boolean
  verified_at: string | null
  created_at: string
}
