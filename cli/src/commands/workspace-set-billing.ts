import { changeWorkspaceBilling } from '@docsvc/core'
import { Args, Flags } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'
import { billingLines } from '../billing-lines.ts'

export default class WorkspaceSetBilling extends BaseCommand {
  static override description =
    "Set a workspace's plan, the day its billing cycle starts and its monthly top-up limit"
  static override examples = [
    '<%= config.bin %> workspace set-billing ws_... --cycle-start-day 15 --top-up-limit 4',
    '<%= config.bin %> workspace set-billing ws_... --plan growth --top-up-limit none',
  ]
  static override args = { id: Args.string({ required: true, description: 'workspace id (ws_...)' }) }
  static override flags = {
    plan: Flags.string({ description: 'plan id (see plan list)' }),
    'cycle-start-day': Flags.integer({
      description:
        'day of the month (1 to 28) each cycle starts, 00:00 UTC; the current cycle ends at its next one',
    }),
    'top-up-limit': Flags.string({
      description: 'auto top-ups a cycle may take: a whole number (0: auto top-ups off) or none (no limit)',
    }),
  }

  async run() {
    const { args, flags } = await this.parse(WorkspaceSetBilling)
    const limit = flags['top-up-limit']
    if (flags.plan === undefined && flags['cycle-start-day'] === undefined && limit === undefined) {
      this.error('nothing to change: give --plan, --cycle-start-day or --top-up-limit', { exit: 2 })
    }
    // "none" is no limit; anything else goes to the service as a number or as the text it is, to be refused there
    const topUpLimit =
      limit === undefined
        ? undefined
        : limit === 'none'
          ? null
          : /^-?\d+$/.test(limit)
            ? Number(limit)
            : limit
    const billing = await withKernel(this.env(flags), (k) =>
      changeWorkspaceBilling(k.container.cradle, args.id, {
        ...(flags.plan !== undefined ? { plan: flags.plan } : {}),
        ...(flags['cycle-start-day'] !== undefined ? { cycle_start_day: flags['cycle-start-day'] } : {}),
        ...(topUpLimit !== undefined ? { top_up_limit: topUpLimit } : {}),
      }),
    )
    for (const line of billingLines(billing)) this.log(line)
    return billing
  }
}
