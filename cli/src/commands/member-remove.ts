import { Flags } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

export default class MemberRemove extends BaseCommand {
  static override description = 'Remove a member from a workspace (its verification link stops working)'
  static override flags = {
    workspace: Flags.string({ required: true, description: 'workspace id (ws_...)' }),
    member: Flags.string({ required: true, description: 'member id (mem_...)' }),
  }

  async run() {
    const { flags } = await this.parse(MemberRemove)
    const member = await withKernel(this.env(flags), (k) =>
      k.container.cradle.memberService.remove(flags.workspace, flags.member),
    )
    this.log(`removed ${member.id} (${member.email}) from ${member.workspace_id}`)
    return member
  }
}
