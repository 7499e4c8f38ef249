import { Flags } from '@oclif/core'
import { splitList, withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

export default class WorkspaceCreate extends BaseCommand {
  static override description = 'Create a workspace'
  static override flags = {
    name: Flags.string({ required: true, description: 'workspace name' }),
    plan: Flags.string({ description: 'plan id (free, starter, growth, pro, scale)', default: 'free' }),
    'ip-allow': Flags.string({ description: 'comma-separated CIDRs the workspace API accepts' }),
  }

  async run() {
    const { flags } = await this.parse(WorkspaceCreate)
    const ws = await withKernel(this.env(flags), (k) =>
      k.container.cradle.workspaceService.create({
        name: flags.name,
        plan: flags.plan,
        ipAllowlist: splitList(flags['ip-allow']) ?? null,
      }),
    )
    this.log(`created ${ws.id} (${ws.name}, plan ${ws.plan_id})`)
    return ws
  }
}
