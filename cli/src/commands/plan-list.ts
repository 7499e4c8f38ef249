import { planTablesMarkdown } from '@docsvc/core'
import { Flags } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

export default class PlanList extends BaseCommand {
  static override description = 'List the plans with their features and limits'

  static override flags = {
    markdown: Flags.boolean({
      description:
        'print features × plans and limits × plans as Markdown tables (the tables of docs/plans.md, from this installation)',
    }),
  }

  async run() {
    const { flags } = await this.parse(PlanList)
    const { plans, titles } = await withKernel(this.env(flags), async (k) => {
      const { planService, planGate } = k.container.cradle
      const declared = planGate.declared().map(({ key, feature }) => [key, feature.title])
      return {
        plans: await planService.list(),
        titles: Object.fromEntries(declared) as Record<string, string>,
      }
    })
    if (flags.markdown) {
      this.log(planTablesMarkdown(plans, titles))
      return plans
    }
    for (const plan of plans) {
      const on = Object.entries(plan.features)
        .filter(([, enabled]) => enabled)
        .map(([key]) => key)
      this.log(`${plan.id.padEnd(10)} ${plan.name}`)
      this.log(`  features: ${on.join(', ') || 'none'}`)
      this.log(
        `  limits:   ${Object.entries(plan.limits)
          .map(([key, value]) => `${key}=${value}`)
          .join(' ')}`,
      )
    }
    return plans
  }
}
