import { Args } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

export default class WorkspaceClearEmailExemption extends BaseCommand {
  static override description =
    "End a workspace's exemption from the email check (kept by workspaces older than members and the first-run one): its live keys then need a verified owner"
  static override args = { id: Args.string({ required: true, description: 'workspace id (ws_...)' }) }

  async run() {
    const { args, flags } = await this.parse(WorkspaceClearEmailExemption)
    const { workspace, verifiedOwner } = await withKernel(this.env(flags), async (k) => {
      const { workspaceService, memberService } = k.container.cradle
      const workspace = await workspaceService.setEmailCheckWaived(args.id, false)
      return { workspace, verifiedOwner: await memberService.hasVerifiedOwner(workspace.id) }
    })
    this.log(`${workspace.id} is no longer exempt from the email check`)
    this.log(
      verifiedOwner
        ? 'it has a verified owner: its live keys keep rendering'
        : 'it has no verified owner: live renders answer 403 email_not_verified until one opens their verification link (docsvc member add, docsvc member verify-link)',
    )
    return { ...workspace, verified_owner: verifiedOwner }
  }
}
