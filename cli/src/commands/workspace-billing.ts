import { showWorkspaceBilling } from '@docsvc/core'
import { Args } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'
import { billingLines } from '../billing-lines.ts'

export default class WorkspaceBillingShow extends BaseCommand {
  static override description = "Show a workspace's plan, billing cycle, top-up limit and usage this cycle"
  static override args = { id: Args.string({ required: true, description: 'workspace id (ws_...)' }) }

  async run() {
    const { args, flags } = await this.parse(WorkspaceBillingShow)
    const billing = await withKernel(this.env(flags), (k) =>
      showWorkspaceBilling(k.container.cradle, args.id),
    )
    for (const line of billingLines(billing)) this.log(line)
    return billing
  }
}
