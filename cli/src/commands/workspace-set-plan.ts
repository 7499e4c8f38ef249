import { Args } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

export default class WorkspaceSetPlan extends BaseCommand {
  static override description = 'Move a workspace to another plan'
  static override args = {
    id: Args.string({ required: true, description: 'workspace id (ws_...)' }),
    plan: Args.string({ required: true, description: 'plan id' }),
  }

  async run() {
    const { args, flags } = await this.parse(WorkspaceSetPlan)
    const ws = await withKernel(this.env(flags), (k) =>
      k.container.cradle.workspaceService.setPlan(args.id, args.plan),
    )
    this.log(`${ws.id} is on plan ${ws.plan_id}`)
    return ws
  }
}
