import { Flags } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

export default class MemberList extends BaseCommand {
  static override description = 'List the members of a workspace'
  static override flags = {
    workspace: Flags.string({ required: true, description: 'workspace id (ws_...)' }),
  }

  async run() {
    const { flags } = await this.parse(MemberList)
    const members = await withKernel(this.env(flags), (k) =>
      k.container.cradle.memberService.list(flags.workspace),
    )
    for (const m of members) {
      this.log(
        `${m.id}  ${m.role.padEnd(9)} ${m.verified ? `verified ${m.verified_at}` : 'not verified'}  ${m.email}`,
      )
    }
    return members
  }
}
