import ConfigPrint from './commands/config-print.ts'
import ConformanceCheck from './commands/conformance-check.ts'
import KeyCreate from './commands/key-create.ts'
import KeyList from './commands/key-list.ts'
import KeyRevoke from './commands/key-revoke.ts'
import KeyRoll from './commands/key-roll.ts'
import MemberAdd from './commands/member-add.ts'
import MemberList from './commands/member-list.ts'
import MemberRemove from './commands/member-remove.ts'
import MemberVerifyLink from './commands/member-verify-link.ts'
import Migrate from './commands/migrate.ts'
import PlanList from './commands/plan-list.ts'
import PlanSet from './commands/plan-set.ts'
import Serve from './commands/serve.ts'
import WebhooksListen from './commands/webhooks-listen.ts'
import Worker from './commands/worker.ts'
import WorkspaceBillingShow from './commands/workspace-billing.ts'
import WorkspaceClearEmailExemption from './commands/workspace-clear-email-exemption.ts'
import WorkspaceCreate from './commands/workspace-create.ts'
import WorkspaceList from './commands/workspace-list.ts'
import WorkspaceSetBilling from './commands/workspace-set-billing.ts'
import WorkspaceSetPlan from './commands/workspace-set-plan.ts'
import { WorkspaceSettingsGet, WorkspaceSettingsSet } from './commands/workspace-settings.ts'
import { WorkspaceResume, WorkspaceScheduleDeletion, WorkspaceSuspend } from './commands/workspace-status.ts'

// oclif's explicit command strategy: the command ids and their classes, no folder scanning.
export const commands = {
  serve: Serve,
  worker: Worker,
  migrate: Migrate,
  'config:print': ConfigPrint,
  'conformance:check': ConformanceCheck,
  'workspace:create': WorkspaceCreate,
  'workspace:list': WorkspaceList,
  'workspace:suspend': WorkspaceSuspend,
  'workspace:resume': WorkspaceResume,
  'workspace:schedule-deletion': WorkspaceScheduleDeletion,
  'workspace:set-plan': WorkspaceSetPlan,
  'workspace:billing': WorkspaceBillingShow,
  'workspace:set-billing': WorkspaceSetBilling,
  'workspace:settings:get': WorkspaceSettingsGet,
  'workspace:settings:set': WorkspaceSettingsSet,
  'workspace:clear-email-exemption': WorkspaceClearEmailExemption,
  'member:add': MemberAdd,
  'member:list': MemberList,
  'member:remove': MemberRemove,
  'member:verify-link': MemberVerifyLink,
  'key:create': KeyCreate,
  'key:list': KeyList,
  'key:roll': KeyRoll,
  'key:revoke': KeyRevoke,
  'plan:list': PlanList,
  'plan:set': PlanSet,
  'webhooks:listen': WebhooksListen,
}
