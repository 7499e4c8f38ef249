export type WorkspaceStatus = 'active' | 'suspended' | 'deletion_scheduled'

/**
 * What the operator switches per workspace (SPEC 2.11, 4.8, 5; issue 16 item 7), read and changed
 * through `docsvc workspace settings` and `/admin/v1/workspaces/{id}/settings`. Where each one is
 * honoured: docs/decisions/0091.
 */
export interface WorkspaceSettings {
  /** live keys may render template drafts (SPEC 5: else 403 `test_key_required`) */
  allow_live_drafts: boolean
  /** render files in webhook payloads carry signed URLs */
  file_urls_in_webhooks: boolean
  /** email sends keep their content, so they can be resent (SPEC 4.8's request logging) */
  email_request_logging: boolean
  /** renders that name no `retention_days` keep no files (zero retention) */
  zero_retention_default: boolean
  /** email delivery is switched on (SPEC 7.3: else 403 `feature_not_enabled`) */
  email_enabled: boolean
}

export const WORKSPACE_SETTING_NAMES = [
  'allow_live_drafts',
  'file_urls_in_webhooks',
  'email_request_logging',
  'zero_retention_default',
  'email_enabled',
] as const satisfies readonly (keyof WorkspaceSettings)[]

export interface Workspace {
  id: string
  name: string
  plan_id: string
  status: WorkspaceStatus
  ip_allowlist: string[] | null
  /**
   * Live rendering without a verified owner: workspaces made before members existed and the
   * first-run workspace (docs/decisions/0090).
   */
  email_check_waived: boolean
  settings: WorkspaceSettings
  regions: string[]
  created_at: string
}

export const DEFAULT_WORKSPACE_SETTINGS: WorkspaceSettings = {
  allow_live_drafts: false,
  file_urls_in_webhooks: true,
  email_request_logging: true,
  zero_retention_default: false,
  email_enabled: true,
}
