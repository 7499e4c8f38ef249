import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

export default class WorkspaceList extends BaseCommand {
  static override description = 'List workspaces'

  async run() {
    const { flags } = await this.parse(WorkspaceList)
    const list = await withKernel(this.env(flags), (k) => k.container.cradle.workspaceService.list())
    for (const ws of list) this.log(`${ws.id}  ${ws.status.padEnd(18)} ${ws.plan_id.padEnd(8)} ${ws.name}`)
    return list
  }
}
