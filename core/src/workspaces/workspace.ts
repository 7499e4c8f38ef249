export type WorkspaceStatus = 'active' | 'suspended' | 'deletion_scheduled'

export interface WorkspaceSettings {
  /** live keys may render template drafts */
  allow_live_drafts: boolean
  /** render files in webhook payloads carry signed URLs */
  file_urls_in_webhooks: boolean
}

export interface Workspace {
  id: string
  name: string
  plan_id: string
  status: WorkspaceStatus
  ip_allowlist: string[] | null
  email_verified: boolean
  settings: WorkspaceSettings
  regions: string[]
  created_at: string
}

export const DEFAULT_WORKSPACE_SETTINGS: WorkspaceSettings = {
  allow_live_drafts: false,
  file_urls_in_webhooks: true,
}
