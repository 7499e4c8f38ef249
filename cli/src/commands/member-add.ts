import { MEMBER_ROLES, type VerificationLinkView } from '@docsvc/core'
import { Flags } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

export default class MemberAdd extends BaseCommand {
  static override description =
    'Add a member to a workspace and print the verification link to pass on (mailed too when DOCSVC_SMTP_URL is set)'
  static override flags = {
    workspace: Flags.string({ required: true, description: 'workspace id (ws_...)' }),
    email: Flags.string({ required: true, description: "the member's email address" }),
    role: Flags.string({
      options: [...MEMBER_ROLES],
      description: 'default: owner for a workspace without one, else developer',
    }),
  }

  async run() {
    const { flags } = await this.parse(MemberAdd)
    const { member, verification } = await withKernel(this.env(flags), (k) =>
      k.container.cradle.memberService.add({
        workspaceId: flags.workspace,
        email: flags.email,
        ...(flags.role ? { role: flags.role as (typeof MEMBER_ROLES)[number] } : {}),
      }),
    )
    this.log(`added ${member.id} (${member.email}, ${member.role}) to ${member.workspace_id}`)
    if (verification) logVerificationLink(this, verification)
    return { ...member, verification }
  }
}

/** How member add and member verify-link print a link: the operator passes it on unless mailed. */
export function logVerificationLink(command: { log(text: string): void }, link: VerificationLinkView): void {
  if (link.mailed) command.log('verification link mailed to the member; it is also:')
  else {
    command.log(
      link.mail_error
        ? `the SMTP server did not take the mail (${link.mail_error}); pass this link on:`
        : 'pass this verification link on to the member:',
    )
  }
  command.log(`  ${link.url}`)
  command.log(`  works once, until ${link.expires_at}`)
}
