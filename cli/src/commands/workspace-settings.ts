import { WORKSPACE_SETTING_NAMES, type WorkspaceSettings } from '@docsvc/core'
import { Args, Flags } from '@oclif/core'
import { withKernel } from '../admin-context.ts'
import { BaseCommand } from '../base-command.ts'

const flagName = (setting: string) => setting.replaceAll('_', '-')

const workspaceArg = { id: Args.string({ required: true, description: 'workspace id (ws_...)' }) }

function logSettings(command: { log(text: string): void }, settings: WorkspaceSettings): void {
  for (const name of WORKSPACE_SETTING_NAMES)
    command.log(`${name.padEnd(24)} ${settings[name] ? 'on' : 'off'}`)
}

export class WorkspaceSettingsGet extends BaseCommand {
  static override description = "Show a workspace's settings"
  static override args = workspaceArg

  async run() {
    const { args, flags } = await this.parse(WorkspaceSettingsGet)
    const ws = await withKernel(this.env(flags), (k) => k.container.cradle.workspaceService.get(args.id))
    logSettings(this, ws.settings)
    return ws.settings
  }
}

export class WorkspaceSettingsSet extends BaseCommand {
  static override description =
    "Change a workspace's settings: --allow-live-drafts, --no-email-enabled, ... (the ones not named stay)"
  static override args = workspaceArg
  static override flags = Object.fromEntries(
    WORKSPACE_SETTING_NAMES.map((name) => [
      flagName(name),
      Flags.boolean({ allowNo: true, description: `switch ${name} on (--no-${flagName(name)}: off)` }),
    ]),
  )

  async run() {
    const { args, flags } = await this.parse(WorkspaceSettingsSet)
    const patch: Partial<WorkspaceSettings> = {}
    for (const name of WORKSPACE_SETTING_NAMES) {
      const value = (flags as Record<string, boolean | undefined>)[flagName(name)]
      if (value !== undefined) patch[name] = value
    }
    if (Object.keys(patch).length === 0) {
      this.error(
        `name at least one setting: ${WORKSPACE_SETTING_NAMES.map((n) => `--[no-]${flagName(n)}`).join(', ')}`,
        {
          exit: 2,
        },
      )
    }
    const settings = await withKernel(this.env(flags), (k) =>
      k.container.cradle.workspaceService.updateSettings(args.id, patch),
    )
    logSettings(this, settings)
    return settings
  }
}
