import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

export default class PlanList extends BaseCommand {
  static override description = 'List the plans with their features and limits'

  async run() {
    const { flags } = await this.parse(PlanList)
    const plans = await withKernel(this.env(flags), (k) => k.container.cradle.planService.list())
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
