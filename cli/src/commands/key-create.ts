import { Flags } from '@oclif/core'
import { splitList, withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

export default class KeyCreate extends BaseCommand {
  static override description = 'Create an API key; the full key is shown once'
  static override flags = {
    workspace: Flags.string({ required: true, description: 'workspace id (ws_...)' }),
    mode: Flags.string({ required: true, options: ['test', 'live'] }),
    name: Flags.string({ description: 'label' }),
    scopes: Flags.string({ description: 'comma-separated scopes (default: all)' }),
    'ip-allow': Flags.string({ description: 'comma-separated IPv4/IPv6 CIDRs' }),
    'expires-at': Flags.string({ description: 'ISO 8601 expiry' }),
    templates: Flags.string({ description: 'comma-separated template ids the key may render' }),
  }

  async run() {
    const { flags } = await this.parse(KeyCreate)
    const created = await withKernel(this.env(flags), (k) =>
      k.container.cradle.apiKeyService.create({
        workspaceId: flags.workspace,
        mode: flags.mode as 'test' | 'live',
        ...(flags.name ? { name: flags.name } : {}),
        ...(flags.scopes ? { scopes: splitList(flags.scopes) ?? [] } : {}),
        ipAllowlist: splitList(flags['ip-allow']) ?? null,
        templateAllowlist: splitList(flags.templates) ?? null,
        expiresAt: flags['expires-at'] ?? null,
      }),
    )
    this.log(`created ${created.record.id}; the key is shown once:\n${created.key}`)
    const { secret_hash: _hash, ...record } = created.record
    return { key: created.key, ...record }
  }
}
