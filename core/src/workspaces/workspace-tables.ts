// The workspaces feature's table (its part of migration 0001-platform in ./migrations, and 0010), joined to
// the Database type. Other features reach workspaces through WorkspaceService, never here.

export interface WorkspaceTable {
  id: string
  name: string
  plan_id: string
  status: 'active' | 'suspended' | 'deletion_scheduled'
  ip_allowlist: string | null
  email_check_waived: number
  settings: string
  regions: string
  created_at: string
  updated_at: string
}

declare module '../db/schema.ts' {
  interface Database {
    workspaces: WorkspaceTable
  }
}
