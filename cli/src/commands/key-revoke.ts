import { Args } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

export default class KeyRevoke extends BaseCommand {
  static override description = 'Revoke a key at once'
  static override args = { id: Args.string({ required: true, description: 'key id (key_...)' }) }

  async run() {
    const { args, flags } = await this.parse(KeyRevoke)
    const key = await withKernel(this.env(flags), (k) => k.container.cradle.apiKeyService.revoke(args.id))
    this.log(`${key.id} revoked at ${key.revoked_at}`)
    const { secret_hash: _hash, ...record } = key
    return record
  }
}
