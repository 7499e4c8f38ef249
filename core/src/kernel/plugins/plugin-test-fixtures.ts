import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Type } from 'typebox'
import { definePlugin, type PluginLogger, type PluginManifest } from '../../sdk/index.ts'
import type { OutputFormat } from '../../sdk/render-contracts.ts'
import type { InputPlugin, OutputPlugin } from './extension-points.ts'

/** The worked example in examples/plugin-hello, as a package would be installed. */
export const HELLO_PACKAGE_DIR = fileURLToPath(new URL('../../../../examples/plugin-hello', import.meta.url))

/** A directory whose node_modules holds the given packages: a symlink, or files to write. */
export function pluginDirectory(packages: Record<string, string | Record<string, string>>): {
  dir: string
  remove(): void
} {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-plugins-'))
  for (const [name, content] of Object.entries(packages)) {
    const target = path.join(dir, 'node_modules', name)
    mkdirSync(path.dirname(target), { recursive: true })
    if (typeof content === 'string') {
      symlinkSync(content, target, 'dir')
      continue
    }
    mkdirSync(target)
    for (const [file, text] of Object.entries(content)) writeFileSync(path.join(target, file), text)
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export interface RecordingLogger extends PluginLogger {
  lines: { level: string; msg: string; data?: Record<string, unknown> }[]
}

export function recordingLogger(): RecordingLogger {
  const lines: RecordingLogger['lines'] = []
  const at = (level: string) => (msg: string, data?: Record<string, unknown>) =>
    void lines.push({ level, msg, ...(data ? { data } : {}) })
  return { lines, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') }
}

/** A built-in-style plugin adding one input per key it provides, with optional overrides. */
export function inputPlugin(
  id: string,
  inputs: string[],
  extra: Partial<PluginManifest<never>> = {},
): PluginManifest<never> {
  return definePlugin({
    id,
    apiVersion: '^1',
    provides: { inputs },
    register({ registries }) {
      for (const type of inputs) registries.inputs.add(type, fakeInput(type))
    },
    ...extra,
  }) as PluginManifest<never>
}

/** Registry entries that satisfy the contracts without doing anything. */
export function fakeInput(type: string): InputPlugin {
  return { type, schema: Type.Object({}), resolve: async () => ({ kind: 'html', html: '' }) }
}

export function fakeOutput(format: OutputFormat): OutputPlugin {
  return {
    format,
    optionsSchema: Type.Object({}),
    render: async () => ({ format, contentType: 'application/octet-stream', bytes: Buffer.alloc(0) }),
  }
}

/** A host for plugins loaded outside a kernel: nothing may be fetched. */
export { testPluginHost as testHost } from '../../testing/load-test-plugins.ts'
