import { Flags } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'
import { logVerificationLink } from './member-add.ts'

export default class MemberVerifyLink extends BaseCommand {
  static override description =
    'Make a new verification link for a member (the earlier one stops working); mailed too when DOCSVC_SMTP_URL is set'
  static override flags = {
    workspace: Flags.string({ required: true, description: 'workspace id (ws_...)' }),
    member: Flags.string({ required: true, description: 'member id (mem_...)' }),
  }

  async run() {
    const { flags } = await this.parse(MemberVerifyLink)
    const link = await withKernel(this.env(flags), (k) =>
      k.container.cradle.memberService.verificationLink(flags.workspace, flags.member),
    )
    logVerificationLink(this, link)
    return link
  }
}
