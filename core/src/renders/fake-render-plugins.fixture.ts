import { type TSchema, Type } from 'typebox'
import { STANDARD_PLUGINS } from '../composition/standard-plugins.ts'
import { createRegistries } from '../kernel/plugins/extension-points.ts'
import { ProblemError } from '../kernel/problem-error.ts'
import { protectSchemaOf } from '../pdf-tools/pdf-tool-schemas.ts'
import { definePlugin, type PluginManifest } from '../sdk/define-plugin.ts'
import {
  type ConformanceValidator,
  conformanceReport,
  type Finding,
  type PdfPostProcessor,
} from '../sdk/pdf-pipeline-contracts.ts'
import type { OutputFormat, RenderDocument, RenderOutput } from '../sdk/render-contracts.ts'
import { stampTestFile, type TestMark } from '../test-mark/test-mark.ts'
import { loadTestPlugins } from '../testing/load-test-plugins.ts'
import { standardPlugin } from '../testing/standard-plugin.ts'

// Stand-ins for the Chromium outputs, so the render API's behaviour is tested fast and exactly:
// the document's HTML drives them (`sleep:<ms>`, `fail:<code>`, `pages:<n>`, `bytes:<n>`, and
// `hold:<name>`, which waits until the test calls releaseHeld(name): a render in flight for as
// long as a test needs, with no timing to guess); a URL document with HttpOptions is fetched with
// its credentials and its body drives them.

const held = new Map<string, { released: Promise<void>; release: () => void }>()

function holdOf(name: string) {
  let entry = held.get(name)
  if (!entry) {
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    entry = { released, release }
    held.set(name, entry)
  }
  return entry
}

/** Lets every render held on `name` (now or later) go on. */
export function releaseHeld(name: string): void {
  holdOf(name).release()
}

function directive(html: string, name: string): string | undefined {
  return new RegExp(`${name}:([\\w.]+)`).exec(html)?.[1]
}

/** A URL with HttpOptions is fetched with them, as the browser would (plugins/chromium page-loader). */
async function fetchWithCredentials(doc: RenderDocument & { kind: 'url' }): Promise<string> {
  const { basic_auth, headers, cookies } = doc.http ?? {}
  const sent: Record<string, string> = { ...headers }
  if (basic_auth) {
    sent.authorization = `Basic ${Buffer.from(`${basic_auth.username}:${basic_auth.password}`).toString('base64')}`
  }
  if (cookies?.length) sent.cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ')
  const res = await fetch(doc.url, { headers: sent })
  if (!res.ok) throw new ProblemError('navigation_failed', `${doc.url} answered ${res.status}`)
  return res.text()
}

/**
 * The `protect` options of the built-in PDF output (Chromium's), read from what it registers
 * through the real loader (nothing starts): the PDF tools' protect route takes its fields from the
 * PDF output, so the fake's must be the real ones.
 */
async function builtinPdfProtect(): Promise<TSchema> {
  const { registries } = await loadTestPlugins({ plugins: [standardPlugin('chromium')] })
  const protect = protectSchemaOf(registries.outputs.get('pdf')?.optionsSchema)
  if (!protect) throw new Error('the built-in PDF output has no protect options')
  return protect
}

const BUILTIN_PDF_PROTECT = await builtinPdfProtect()

/** PDF options the plan gate looks at (PDF/A, PDF/UA; a PDF/UA preview is tagged), as Chromium's */
const PLAN_GATED_PDF_OPTIONS = {
  pdfa: Type.Optional(Type.Union([Type.Literal('2b'), Type.Literal('3b')])),
  pdfua: Type.Optional(Type.Boolean()),
  tagged: Type.Optional(Type.Boolean()),
  // makes the PDF tagged, as Chromium's does: it owes a PDF/UA report
  outline: Type.Optional(Type.Boolean()),
}

function fakeOutput(format: OutputFormat): RenderOutput<Record<string, unknown>> {
  return {
    format,
    // they stand in for Chromium's outputs, so a request may name that engine
    engine: 'chromium',
    optionsSchema: Type.Object(
      {
        scale: Type.Optional(Type.Number({ minimum: 0.1, maximum: 2 })),
        // the PDF tools' protect route takes its fields from the PDF output, as from Chromium's
        ...(format === 'pdf' ? { protect: BUILTIN_PDF_PROTECT, ...PLAN_GATED_PDF_OPTIONS } : {}),
      },
      { additionalProperties: false },
    ),
    async render(doc: RenderDocument, _options, ctx) {
      const html = doc.kind === 'html' ? doc.html : doc.http ? await fetchWithCredentials(doc) : doc.url
      const sleep = Number(directive(html, 'sleep') ?? 0)
      if (sleep > 0) await new Promise((resolve) => setTimeout(resolve, sleep))
      const hold = directive(html, 'hold')
      if (hold) {
        const stopped = new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()))
        await Promise.race([holdOf(hold).released, stopped])
        // as a real output does: an aborted render ends with an error, not a file
        if (ctx.signal.aborted) throw new ProblemError('render_failed', 'the render was stopped')
      }
      const fail = directive(html, 'fail')
      if (fail) throw new ProblemError(fail as never, `asked to fail with ${fail}`)
      if (directive(html, 'crash')) throw new Error('engine crashed')
      const pages = Number(directive(html, 'pages') ?? 1)
      if (pages > ctx.maxPages)
        throw new ProblemError('page_limit_exceeded', `${pages} pages; the plan allows ${ctx.maxPages}`)
      if (directive(html, 'warn')) ctx.warn('asset_failed', 'an image could not be loaded')
      const size = Number(directive(html, 'bytes') ?? 0)
      // the kernel marks test renders (FAKE_TEST_MARK), never the output
      const body = `${format.toUpperCase()} ${html}`
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

const FAKE_FILE = /^(PDF|PNG) /
const REAL_FILE = [
  Buffer.from('%PDF'),
  Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  Buffer.from([0xff, 0xd8]),
  Buffer.from('RIFF'),
]

/**
 * The kernel's TEST stamp for kernels with the fake outputs: real files (canvas images, PDF tool
 * outputs) get the real stamp; the fake outputs' text (`PDF <html>`) becomes `PDF TEST <html>`.
 */
export const FAKE_TEST_MARK: TestMark = async (file, options) => {
  if (REAL_FILE.some((magic) => file.bytes.subarray(0, magic.length).equals(magic)))
    return stampTestFile(file, options)
  if (!FAKE_FILE.test(file.bytes.subarray(0, 4).toString('latin1'))) return file
  return {
    ...file,
    bytes: Buffer.concat([file.bytes.subarray(0, 4), Buffer.from('TEST '), file.bytes.subarray(4)]),
  }
}

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

/** `name:<value>` directives in a fake file's text (rule ids have dashes and dots) */
function directives(bytes: Buffer, name: string): string[] {
  return [...bytes.toString('latin1').matchAll(new RegExp(`${name}:([\\w.-]+)`, 'g'))].map((m) => m[1]!)
}

/**
 * A post-processing step for the fake outputs' text: it appends `[<id> <options>]` to the file,
 * and reports a finding for each `<id>-finding:<rule>` (error) or `<id>-note:<rule>` (warning)
 * in it.
 */
function fakeStep(
  id: string,
  phase: PdfPostProcessor['phase'],
  optionsSchema: PdfPostProcessor['optionsSchema'],
) {
  const step: PdfPostProcessor = {
    id,
    phase,
    optionsSchema,
    async run(pdf, options, ctx) {
      ctx.signal.throwIfAborted()
      const findings: Finding[] = [
        ...directives(pdf, `${id}-finding`).map((ruleId) => ({
          ruleId,
          severity: 'error' as const,
          message: `${id} could not meet ${ruleId}`,
          page: 1,
        })),
        ...directives(pdf, `${id}-note`).map((ruleId) => ({
          ruleId,
          severity: 'warning' as const,
          message: `${id} notes ${ruleId}`,
        })),
      ]
      return { bytes: Buffer.concat([pdf, Buffer.from(` [${id} ${JSON.stringify(options)}]`)]), findings }
    },
  }
  return step
}

/**
 * A validator of the fake outputs' text, for `key` (pdfa or pdfua): `<key>-violate:<rule>`
 * is an error on page 2, `<key>-hang:x` never answers (nor watches its signal),
 * `<key>-throw:x` throws.
 */
function fakeValidator(
  key: 'pdfa' | 'pdfua',
  profiles: ConformanceValidator['profiles'],
): ConformanceValidator {
  return {
    id: `fake-${key}-validator`,
    reportKey: key,
    profiles,
    async validate(pdf, { profile }) {
      if (directives(pdf, `${key}-hang`).length > 0) return new Promise(() => {})
      if (directives(pdf, `${key}-throw`).length > 0) throw new Error('the fake validator broke')
      const findings = directives(pdf, `${key}-violate`).map((ruleId) => ({
        ruleId,
        severity: 'error' as const,
        clause: ruleId.split('-')[0]!,
        page: 2,
        object: '4 0 obj PDPage',
        message: `breaks ${ruleId} of ${profile}`,
      }))
      return conformanceReport(findings, {
        profile,
        source: 'fake-validator 1',
        rulesChecked: ['R1', 'R2', 'R3'],
      })
    },
  }
}

/** PDF/A and PDF/UA steps and validators for the fake outputs (decision 0109). */
export const fakeConformancePlugin = definePlugin({
  id: 'fake-conformance',
  apiVersion: '^1',
  provides: {
    pdfPostProcessors: ['fake-pdfa', 'fake-pdfua'],
    conformanceValidators: ['fake-pdfa-validator', 'fake-pdfua-validator'],
  },
  register({ registries }) {
    registries.pdfPostProcessors.add(
      'fake-pdfa',
      fakeStep('fake-pdfa', 'archive', Type.Object({ pdfa: PLAN_GATED_PDF_OPTIONS.pdfa })),
    )
    registries.pdfPostProcessors.add(
      'fake-pdfua',
      fakeStep('fake-pdfua', 'accessibility', Type.Object({ pdfua: PLAN_GATED_PDF_OPTIONS.pdfua })),
    )
    registries.conformanceValidators.add('fake-pdfa-validator', fakeValidator('pdfa', ['pdfa-2b', 'pdfa-3b']))
    registries.conformanceValidators.add('fake-pdfua-validator', fakeValidator('pdfua', ['pdfua-1']))
  },
})

export const FAKE_OUTPUT_BUILTINS = [
  ...STANDARD_PLUGINS.filter((p) => p.id !== 'chromium'),
  fakeOutputsPlugin,
  fakeConformancePlugin,
] as PluginManifest<never>[]

/**
 * A built-in plugin without the inputs it registers (they go to a throwaway registry): the html
 * and markdown inputs lend the real template engine and document builders beside the fake render
 * plugin's own `html`, so templates and previews work as in production. No start or stop: the
 * Liquid worker threads are shared by every kernel of a test process, one kernel's stop must not
 * end them under another's renders.
 */
function withoutInputs(plugin: PluginManifest<never>): PluginManifest<never> {
  const { inputs: _inputs, ...provides } = plugin.provides
  return {
    id: plugin.id,
    apiVersion: plugin.apiVersion,
    provides,
    register: (ctx) =>
      plugin.register({ ...ctx, registries: { ...ctx.registries, inputs: createRegistries().inputs } }),
  }
}

export const FAKE_RENDER_BUILTINS = [
  standardPlugin('queue-sqlite'),
  standardPlugin('queue-pgboss'),
  fakeRenderPlugin,
  fakeConformancePlugin,
  withoutInputs(standardPlugin('input-html')),
  withoutInputs(standardPlugin('input-markdown')),
  standardPlugin('image-canvas'),
] as PluginManifest<never>[]
