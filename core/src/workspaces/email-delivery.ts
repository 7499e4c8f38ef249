import { ProblemError } from '../kernel/problem-error.ts'
import type { Workspace } from './workspace.ts'

/**
 * SPEC 7.3 `feature_not_enabled`: while the operator has email delivery switched off for a
 * workspace, its email connections and rules cannot be created, changed or tested; reading,
 * deleting and switching rules off still work. The one check the email routes call (the email
 * issue adds them); the plan's own `email` feature is the feature gate's, a 402.
 */
export function requireEmailDelivery(workspace: Pick<Workspace, 'id' | 'settings'>): void {
  if (workspace.settings.email_enabled) return
  throw new ProblemError(
    'feature_not_enabled',
    `Email delivery is not enabled for workspace ${workspace.id}; the operator switches it on (docsvc workspace settings set ${workspace.id} --email-enabled).`,
  )
}
