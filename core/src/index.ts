export { accountView } from './account/account-view.ts'
export type { ApiKeyView } from './api-keys/api-key.ts'
export { ApiKeyService, GRACE_HOURS } from './api-keys/api-key-service.ts'
export { SCOPES } from './api-keys/scopes.ts'
export {
  changeWorkspaceBilling,
  showWorkspaceBilling,
  type WorkspaceBilling,
} from './billing/workspace-billing.ts'
export { createKernel, type Kernel, type KernelOptions } from './composition/create-kernel.ts'
export { type ConfigReport, configReport } from './config-report.ts'
export {
  checkPdfFiles,
  type FileCheck,
  loadConformanceValidators,
} from './conformance/conformance-file-check.ts'
export { openDatabase } from './db/database.ts'
export { databaseExists, describeDatabase } from './db/database-presence.ts'
export { migrateToLatest } from './db/migrate.ts'
export { DELIVERED_EVENT_TYPES } from './events/event-types.ts'
export { bootstrapFirstRun } from './first-run.ts'
export { type Config, ConfigSchema, loadConfig, printableConfig } from './kernel/config.ts'
export { ConfigError } from './kernel/config-loader.ts'
export { createLogger } from './kernel/logger.ts'
export { PluginBootError } from './kernel/plugins/plugin-loader.ts'
export { ProblemError } from './kernel/problem-error.ts'
export { MEMBER_ROLES, type MemberRole } from './members/member.ts'
export type { VerificationLinkView } from './members/member-service.ts'
export { createWorkspaceWithOwner, type WorkspaceWithOwner } from './members/workspace-with-owner.ts'
export { planTablesMarkdown } from './plans/plan-docs-table.ts'
export { CONFORMANCE_PROFILES, type ConformanceProfile } from './sdk/pdf-pipeline-contracts.ts'
export { startServer } from './server.ts'
export { WORKSPACE_SETTING_NAMES, type WorkspaceSettings } from './workspaces/workspace.ts'
