import { Args, Flags } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'
import { parsePlanAssignments } from '../plan-flags.ts'

export default class PlanSet extends BaseCommand {
  static override description = "Change a plan's name, features or limits (workspaces on it follow at once)"
  static override examples = [
    '<%= config.bin %> plan set starter --feature email=true --limit requests_per_second=8',
    '<%= config.bin %> plan set pro --name "Pro 2026" --limit max_pages=3000 --json',
  ]
  static override args = { id: Args.string({ required: true, description: 'plan id (see plan list)' }) }
  static override flags = {
    name: Flags.string({ description: 'display name' }),
    feature: Flags.string({
      multiple: true,
      multipleNonGreedy: true,
      description: 'key=true|false; repeatable',
    }),
    limit: Flags.string({ multiple: true, multipleNonGreedy: true, description: 'key=number; repeatable' }),
  }

  async run() {
    const { args, flags } = await this.parse(PlanSet)
    const features = parsePlanAssignments('feature', flags.feature)
    const limits = parsePlanAssignments('limit', flags.limit)
    if (flags.name === undefined && !features && !limits) {
      this.error('nothing to change: give --name, --feature key=true|false or --limit key=number', {
        exit: 2,
      })
    }
    const plan = await withKernel(this.env(flags), (k) =>
      k.container.cradle.planService.change(args.id, {
        ...(flags.name !== undefined ? { name: flags.name } : {}),
        ...(features ? { features } : {}),
        ...(limits ? { limits } : {}),
      }),
    )
    this.log(`plan ${plan.id} (${plan.name}) updated`)
    return plan
  }
}
