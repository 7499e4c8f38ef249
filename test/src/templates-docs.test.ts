import { readFileSync } from 'node:fs'
import type { GuardedFetch, RenderWarning } from '@docsvc/core/sdk'
import { renderScene, type Scene } from '@docsvc/image-canvas'
import { renderLiquid } from '@docsvc/input-html/templating'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../core/src/kernel/config.ts'
import { FAKE_RENDER_BUILTINS } from '../../core/src/renders/fake-render-plugins.fixture.ts'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'
import { type Block, fencedBlocks } from './docs-examples/markdown-blocks.ts'

// The examples of docs/templates.md, run: every Liquid example against the output (or the error)
// written under it, every scene drawn at its size with its documented warnings (or errors), and
// the HTTP walk-through sent to a kernel with stand-in render plugins. Blocks are found by the
// info string of their fence: `liquid example=NAME`, `text output=NAME`, `json scene=NAME`, ...

const DOC_PATH = new URL('../../docs/templates.md', import.meta.url)

const blocks = fencedBlocks(readFileSync(DOC_PATH, 'utf8'), 'docs/templates.md')

function named(key: string, name: string): Block[] {
  return blocks.filter((b) => b.attrs[key] === name)
}

function one(key: string, name: string): Block | undefined {
  const found = named(key, name)
  if (found.length > 1) throw new Error(`docs/templates.md has ${found.length} blocks ${key}=${name}`)
  return found[0]
}

function json(block: Block): unknown {
  try {
    return JSON.parse(block.body)
  } catch (err) {
    throw new Error(`docs/templates.md line ${block.line}: ${(err as Error).message}`)
  }
}

/** The names of blocks carrying `key`, in document order, each once. */
function namesOf(key: string): string[] {
  return [...new Set(blocks.filter((b) => b.attrs[key] !== undefined).map((b) => b.attrs[key] as string))]
}

const noFetch: GuardedFetch = async (url) => {
  throw new Error(`unexpected fetch of ${url}`)
}

describe('docs/templates.md', () => {
  it('has the examples this test expects to run', () => {
    expect(namesOf('example').length).toBeGreaterThanOrEqual(15)
    expect(namesOf('scene').length).toBeGreaterThanOrEqual(3)
    expect(namesOf('request')).toContain('create-invoice')
    // every output, error, partial and data block belongs to an example of the same name
    for (const key of ['output', 'error', 'data'])
      for (const name of namesOf(key)) expect(namesOf('example'), `${key}=${name}`).toContain(name)
    for (const key of ['scene-data', 'warnings', 'scene-error'])
      for (const name of namesOf(key)) expect(one('scene', name), `${key}=${name}`).toBeDefined()
    for (const name of namesOf('response')) expect(one('request', name), `response=${name}`).toBeDefined()
  })
})

describe('Liquid examples of docs/templates.md', () => {
  for (const name of namesOf('example')) {
    it(name, async () => {
      const template = named('example', name).find((b) => b.attrs.partial === undefined)
      if (!template) throw new Error(`example ${name} has no template block`)
      const partials = Object.fromEntries(
        named('example', name)
          .filter((b) => b.attrs.partial !== undefined)
          .map((b) => [b.attrs.partial as string, b.body]),
      )
      const dataBlock = one('data', name)
      const data = dataBlock ? (json(dataBlock) as Record<string, unknown>) : {}
      const output = one('output', name)
      const error = one('error', name)
      expect(Boolean(output) !== Boolean(error), `example ${name} needs an output or an error block`).toBe(
        true,
      )
      const rendering = renderLiquid(template.body, data, {
        partials,
        strictVariables: template.flags.has('strict'),
      })
      if (output) {
        expect(await rendering).toBe(output.body)
        return
      }
      const err = await rendering.then(
        (out) => ({ rendered: out }),
        (e: { code: string; detail: string; extras: Record<string, unknown> }) => ({
          code: e.code,
          detail: e.detail,
          ...e.extras,
        }),
      )
      expect(err).toEqual(json(error as Block))
    })
  }
})

describe('canvas scene examples of docs/templates.md', () => {
  for (const name of namesOf('scene')) {
    it(name, async () => {
      const scene = json(one('scene', name) as Block) as Scene
      const dataBlock = one('scene-data', name)
      const data = dataBlock ? (json(dataBlock) as Record<string, unknown>) : {}
      const warnings: RenderWarning[] = []
      const rendering = renderScene(scene, data, {
        format: 'png',
        fetch: noFetch,
        // what a default installation allows
        maxPixels: loadConfig({}).canvasMaxPixels,
        signal: AbortSignal.timeout(20_000),
        warn: (code, message) => warnings.push({ code, message }),
      })
      const error = one('scene-error', name)
      if (error) {
        const err = await rendering.then(
          () => ({ rendered: true }),
          (e: { code: string; extras: Record<string, unknown> }) => ({
            code: e.code,
            errors: e.extras.errors,
          }),
        )
        expect(err).toEqual(json(error))
        return
      }
      const file = await rendering
      const meta = await sharp(file.bytes).metadata()
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
        format: 'png',
        width: scene.width,
        height: scene.height,
      })
      const documented = one('warnings', name)
      const lines = documented ? documented.body.split('\n').filter((l) => l.trim() !== '') : []
      const seen = warnings.map((w) => `${w.code}: ${w.message}`)
      for (const line of lines) {
        // `…` in a documented warning stands for a part that depends on the installed fonts
        const pattern = new RegExp(`^${line.split('…').map(escapeRegExp).join('.+')}$`)
        expect(
          seen.some((s) => pattern.test(s)),
          `warning "${line}" among ${JSON.stringify(seen)}`,
        ).toBe(true)
      }
    })
  }
})

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

interface HttpExample {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  body: unknown
}

/** `METHOD /path`, headers, a blank line and a JSON body; `{name}` placeholders filled in. */
function httpRequest(name: string, ids: Record<string, string>): HttpExample {
  const block = one('request', name)
  if (!block) throw new Error(`docs/templates.md has no request=${name}`)
  const text = fill(block.body, ids)
  const [head, ...rest] = text.split('\n\n')
  const [method, path] = (head as string).split('\n')[0]!.split(' ')
  const body = rest.join('\n\n').trim()
  return {
    method: method as HttpExample['method'],
    path: path as string,
    body: body ? JSON.parse(body) : undefined,
  }
}

/** `HTTP/1.1 STATUS ...`, a blank line and the JSON fields the answer must have. */
function httpResponse(name: string, ids: Record<string, string>): { status: number; body: unknown } {
  const block = one('response', name)
  if (!block) throw new Error(`docs/templates.md has no response=${name}`)
  const [head, ...rest] = fill(block.body, ids).split('\n\n')
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head as string)?.[1])
  return { status, body: elided(JSON.parse(rest.join('\n\n'))) }
}

function fill(text: string, ids: Record<string, string>): string {
  return text.replace(/\{(template_id|dataset_id)\}/g, (whole, key: string) => ids[key] ?? whole)
}

/** The documented answer without the values it elides (`"tpl_..."`): those vary per call. */
function elided(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(elided)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => !(typeof v === 'string' && v.endsWith('...')))
      .map(([k, v]) => [k, elided(v)]),
  )
}

describe('HTTP walk-through of docs/templates.md', () => {
  let t: TestKernel
  let ws: TestWorkspace
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    t = await startTestKernel({ builtins: FAKE_RENDER_BUILTINS, roles: ['api', 'worker'] })
    ws = await t.createWorkspace({ plan: 'growth' })
    // the walk-through sends its requests back to back: no rate limit in the way
    const { planRepository } = t.kernel.container.cradle
    const plan = (await planRepository.get('growth'))!
    await planRepository.update({
      ...plan,
      limits: { ...plan.limits, requests_per_second: 10_000, test_renders_per_minute: 10_000 },
    })
  })
  afterAll(async () => {
    await t?.close()
  })

  /** Sends the documented request and checks the documented answer; returns the body. */
  async function step(name: string): Promise<Record<string, unknown>> {
    const request = httpRequest(name, ids)
    const expected = httpResponse(name, ids)
    const res = await t.inject({
      method: request.method,
      url: request.path,
      key: ws.testKey,
      ...(request.body !== undefined ? { payload: request.body as object } : {}),
    })
    const body = res.json() as Record<string, unknown>
    expect({ status: res.statusCode, body }, `${request.method} ${request.path}`).toMatchObject({
      status: expected.status,
      body: expected.body,
    })
    return body
  }

  async function download(render: Record<string, unknown>): Promise<string> {
    const files = render.files as { url: string }[]
    const { pathname, search } = new URL(files[0]!.url)
    return (await t.inject({ method: 'GET', url: pathname + search })).body
  }

  it('creates, publishes, previews and renders the pdf_code invoice, then refuses a broken draft', async () => {
    const created = await step('create-invoice')
    ids.template_id = created.id as string
    expect(ids.template_id).toMatch(/^tpl_/)
    const published = await step('publish-invoice')
    expect(published.id).toMatch(/^tv_/)
    await step('preview-invoice')

    // the stand-in PDF output prints the document it was given
    const pdf = await download(await step('render-invoice'))
    expect(pdf).toContain('<h1>Invoice 2026-001</h1>')
    expect(pdf).toContain('<tr><td>Consulting</td><td>€1,200.00</td></tr>')

    await step('render-bad-data')
    const dataset = await step('create-dataset')
    ids.dataset_id = dataset.id as string
    expect(ids.dataset_id).toMatch(/^ds_/)
    const fromDataset = await step('render-dataset')
    const printed = await download(fromDataset)
    // the dataset's data, and the override's CSS after the template's
    expect(printed).toContain('<tr><td>Tea</td><td>€3.20</td></tr>')
    expect(printed).toContain('<style>h1 { font-size: 24px }\nh1 { color: #1d4ed8 }</style>')

    await step('draft-broken')
    await step('publish-broken')
  })

  it('creates, publishes and renders the image_canvas card, and refuses data without its title', async () => {
    const created = await step('create-card')
    ids.template_id = created.id as string
    await step('publish-card')
    const rendered = await step('render-card')
    const png = await download(rendered)
    expect(png.length).toBeGreaterThan(1000)
    await step('render-card-no-title')
  })
})
