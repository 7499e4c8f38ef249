import { createWorkspaceWithOwner } from '@docsvc/core'
import { Flags } from '@oclif/core'
import { splitList, withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'
import { logVerificationLink } from './member-add.ts'

export default class WorkspaceCreate extends BaseCommand {
  static override description =
    "Create a workspace, with its owner when --owner-email is given (the owner's verification link is printed, and mailed when DOCSVC_SMTP_URL is set)"
  static override flags = {
    name: Flags.string({ required: true, description: 'workspace name' }),
    plan: Flags.string({ description: 'plan id (free, starter, growth, pro, scale)', default: 'free' }),
    'ip-allow': Flags.string({ description: 'comma-separated CIDRs the workspace API accepts' }),
    'owner-email': Flags.string({
      description: "the owner's email address: added as owner; live renders need them verified",
    }),
  }

  async run() {
    const { flags } = await this.parse(WorkspaceCreate)
    const ws = await withKernel(this.env(flags), (k) =>
      createWorkspaceWithOwner(k.container.cradle, {
        name: flags.name,
        plan: flags.plan,
        ipAllowlist: splitList(flags['ip-allow']) ?? null,
        ownerEmail: flags['owner-email'],
      }),
    )
    this.log(`created ${ws.id} (${ws.name}, plan ${ws.plan_id})`)
    if (ws.owner) {
      this.log(`owner ${ws.owner.id} (${ws.owner.email}), not verified yet: live renders wait for the link`)
      if (ws.owner.verification) logVerificationLink(this, ws.owner.verification)
    }
    return ws
  }
}
