import { Flags } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

export default class KeyList extends BaseCommand {
  static override description = 'List the API keys of a workspace, with last use and request counts'
  static override flags = {
    workspace: Flags.string({ required: true, description: 'workspace id (ws_...)' }),
  }

  async run() {
    const { flags } = await this.parse(KeyList)
    const keys = await withKernel(this.env(flags), async (k) => {
      // an unknown workspace is an error, not an empty list
      await k.container.cradle.workspaceService.get(flags.workspace)
      return k.container.cradle.apiKeyService.list(flags.workspace)
    })
    for (const key of keys) {
      this.log(
        `${key.id}  ${key.mode}  ${key.status.padEnd(8)} ...${key.last4}  last used ${key.last_used_at ?? 'never'}  24h ${key.requests_24h}  30d ${key.requests_30d}${key.unused ? '  (unused 90 days)' : ''}  ${key.name}`,
      )
    }
    return keys
  }
}
