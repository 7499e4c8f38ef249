import { Args, Flags } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

export default class KeyRoll extends BaseCommand {
  static override description =
    'Replace a key with a new secret; the old one keeps working for the grace period'
  static override args = { id: Args.string({ required: true, description: 'key id (key_...)' }) }
  static override flags = {
    grace: Flags.integer({
      required: true,
      options: ['0', '1', '24', '72'],
      description: 'hours the old key still works',
    }),
  }

  async run() {
    const { args, flags } = await this.parse(KeyRoll)
    const created = await withKernel(this.env(flags), (k) =>
      k.container.cradle.apiKeyService.roll(args.id, flags.grace),
    )
    this.log(`rolled ${args.id} to ${created.record.id}; the new key is shown once:\n${created.key}`)
    const { secret_hash: _hash, ...record } = created.record
    return { key: created.key, rolled_from: args.id, ...record }
  }
}
