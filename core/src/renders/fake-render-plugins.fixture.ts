import { chromiumPlugin } from '@docsvc/chromium'
import { queuePgBossPlugin } from '@docsvc/queue-pgboss'
import { queueSqlitePlugin } from '@docsvc/queue-sqlite'
import { Type } from 'typebox'
import { ProblemError } from '../kernel/problem-error.ts'
import { definePlugin, type PluginManifest } from '../sdk/define-plugin.ts'
import type { OutputFormat, RenderDocument, RenderOutput } from '../sdk/render-contracts.ts'
import { STANDARD_PLUGINS } from '../standard.ts'

// Stand-ins for the Chromium outputs, so the render API's behaviour is tested fast and exactly:
// the document's HTML drives them (`sleep:<ms>`, `fail:<code>`, `pages:<n>`, `bytes:<n>`).

function directive(html: string, name: string): string | undefined {
  return new RegExp(`${name}:([\\w.]+)`).exec(html)?.[1]
}

function fakeOutput(format: OutputFormat): RenderOutput<Record<string, unknown>> {
  return {
    format,
    optionsSchema: Type.Object(
      { scale: Type.Optional(Type.Number({ minimum: 0.1, maximum: 2 })) },
      { additionalProperties: false },
    ),
    async render(doc: RenderDocument, _options, ctx) {
      const html = doc.kind === 'html' ? doc.html : doc.url
      const sleep = Number(directive(html, 'sleep') ?? 0)
      if (sleep > 0) await new Promise((resolve) => setTimeout(resolve, sleep))
      const fail = directive(html, 'fail')
      if (fail) throw new ProblemError(fail as never, `asked to fail with ${fail}`)
      if (directive(html, 'crash')) throw new Error('engine crashed')
      const pages = Number(directive(html, 'pages') ?? 1)
      if (pages > ctx.maxPages)
        throw new ProblemError('page_limit_exceeded', `${pages} pages; the plan allows ${ctx.maxPages}`)
      if (directive(html, 'warn')) ctx.warn('asset_failed', 'an image could not be loaded')
      const size = Number(directive(html, 'bytes') ?? 0)
      const body = `${format.toUpperCase()} ${ctx.test ? 'TEST ' : ''}${html}`
      const bytes = size > 0 ? Buffer.alloc(size, 'x') : Buffer.from(body)
      const contentType =
        format === 'pdf' ? 'application/pdf' : format === 'html' ? 'text/html' : `image/${format}`
      return { format, contentType, bytes, pages }
    },
  }
}

export const fakeRenderPlugin = definePlugin({
  id: 'fake-render',
  apiVersion: '^1',
  provides: { inputs: ['html'], outputs: ['pdf', 'png'] },
  register({ registries }) {
    registries.inputs.add('html', {
      type: 'html',
      schema: Type.Object({ html: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
      resolve: async (input: { html: string }) => ({ kind: 'html', html: input.html }),
    } as never)
    registries.outputs.add('pdf', fakeOutput('pdf') as never)
    registries.outputs.add('png', fakeOutput('png') as never)
  },
})

/**
 * Chromium's five outputs as fakes, beside the real inputs and PDF tools: the whole API, with
 * renders that cost nothing (the schema-driven fuzzing and the tenancy sweep).
 */
export const fakeOutputsPlugin = definePlugin({
  id: 'fake-outputs',
  apiVersion: '^1',
  provides: { outputs: ['pdf', 'png', 'jpeg', 'webp', 'html'] },
  register({ registries }) {
    for (const format of ['pdf', 'png', 'jpeg', 'webp', 'html'] as const)
      registries.outputs.add(format, fakeOutput(format) as never)
  },
})

export const FAKE_OUTPUT_BUILTINS = [
  ...STANDARD_PLUGINS.filter((p) => p !== chromiumPlugin),
  fakeOutputsPlugin,
] as PluginManifest<never>[]

export const FAKE_RENDER_BUILTINS = [
  queueSqlitePlugin,
  queuePgBossPlugin,
  fakeRenderPlugin,
] as PluginManifest<never>[]
