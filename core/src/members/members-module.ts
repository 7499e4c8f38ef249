import { asFunction, Lifetime } from 'awilix'
import type { Cradle } from '../kernel/container.ts'
import { type FeatureModule, singletons } from '../kernel/feature-module.ts'
import { resolveSecretKey } from '../kernel/secret-key.ts'
import type { WorkspacePlanChange } from '../workspaces/workspace-service.ts'
import { FreeWorkspaceLimit } from './free-workspace-limit.ts'
import { memberAdminRoutes } from './member-admin-routes.ts'
import { MemberRepository } from './member-repository.ts'
import { MemberService } from './member-service.ts'
import { VerificationLinks } from './verification-links.ts'
import { VerificationMailer } from './verification-mailer.ts'
import { verifyEmailRoutes } from './verify-email-routes.ts'
import './member-tables.ts'

declare module '../kernel/container.ts' {
  interface Cradle {
    /** the members table, for this folder and tests; other features use memberService */
    memberRepository: MemberRepository
    memberService: MemberService
    /** SPEC 7.3's free workspace limit: counts, lock rows, ended ownerships (decision 0099) */
    freeWorkspaceLimit: FreeWorkspaceLimit
    verificationLinks: VerificationLinks
    verificationMailer: VerificationMailer
  }
}

/**
 * Workspace members (issue 16): email, role, verification by a signed one-time link the
 * operator gets (and the service mails with SMTP configured); live rendering needs a verified
 * owner. A platform feature: the admin CLI manages members and renders check them.
 */
export const membersModule: FeatureModule = {
  id: 'members',
  requires: ['workspaces'],
  register({ container }) {
    container.register({
      ...singletons({
        memberRepository: MemberRepository,
        memberService: MemberService,
        freeWorkspaceLimit: FreeWorkspaceLimit,
      }),
      // replaces the workspaces feature's plan change, which cannot depend on members; read at
      // call time, as memberService depends on workspaceService
      workspacePlanChange: asFunction(
        (cradle: Cradle): WorkspacePlanChange =>
          (id, planId, write) =>
            cradle.memberService.changePlan(id, planId, write),
        { lifetime: Lifetime.SINGLETON },
      ),
      // the secret is resolved when a link is first made or read, not while wiring
      verificationLinks: asFunction(
        ({ config }) =>
          new VerificationLinks({ publicUrl: config.publicUrl, secretKey: resolveSecretKey(config) }),
        { lifetime: Lifetime.SINGLETON },
      ),
      verificationMailer: asFunction(({ config }) => new VerificationMailer({ config }), {
        lifetime: Lifetime.SINGLETON,
        dispose: (mailer) => mailer.close(),
      }),
    })
  },
  async rootRoutes(app, options) {
    await app.register(memberAdminRoutes, options)
    await app.register(verifyEmailRoutes, options)
  },
}
