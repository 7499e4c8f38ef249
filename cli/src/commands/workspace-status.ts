import { Args } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

type Status = 'active' | 'suspended' | 'deletion_scheduled'

const idArg = { id: Args.string({ required: true, description: 'workspace id (ws_...)' }) }

async function setStatus(cmd: BaseCommand, env: NodeJS.ProcessEnv, id: string, status: Status) {
  const ws = await withKernel(env, (k) => k.container.cradle.workspaceService.setStatus(id, status))
  cmd.log(`${ws.id} is ${ws.status}`)
  return ws
}

export class WorkspaceSuspend extends BaseCommand {
  static override description = 'Suspend a workspace: its keys get 403 workspace_suspended'
  static override args = idArg
  async run() {
    const { args, flags } = await this.parse(WorkspaceSuspend)
    return setStatus(this, this.env(flags), args.id, 'suspended')
  }
}

export class WorkspaceResume extends BaseCommand {
  static override description = 'Make a suspended or deletion-scheduled workspace active again'
  static override args = idArg
  async run() {
    const { args, flags } = await this.parse(WorkspaceResume)
    return setStatus(this, this.env(flags), args.id, 'active')
  }
}

export class WorkspaceScheduleDeletion extends BaseCommand {
  static override description =
    'Schedule a workspace for deletion: its keys get 403 workspace_deletion_scheduled'
  static override args = idArg
  async run() {
    const { args, flags } = await this.parse(WorkspaceScheduleDeletion)
    return setStatus(this, this.env(flags), args.id, 'deletion_scheduled')
  }
}
