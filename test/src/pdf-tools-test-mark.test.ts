import { ghostscriptPdf, pdfFonts, pdfPageTexts, qpdfRewrite } from '@docsvc/core/testing'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../../core/src/renders/fake-render-plugins.fixture.ts'
import type { PluginManifest } from '../../core/src/sdk/define-plugin.ts'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'
import { pdfToolsPlugin } from '../../plugins/pdf-tools/src/index.ts'

// SPEC "Test mode": a test key's output is marked TEST, the PDF tools' too; a live key's is not.
// Inputs by Ghostscript and qpdf, outputs read by poppler.

const ALPHA = ghostscriptPdf(['Alpha one', 'Alpha two'])
const BETA = ghostscriptPdf(['Beta one', 'Beta two', 'Beta three'])
const ENCRYPTED = qpdfRewrite(ALPHA, ['--encrypt', 'user-pw', 'owner-pw', '256', '--'])
const source = (bytes: Buffer) => ({ data_uri: `data:application/pdf;base64,${bytes.toString('base64')}` })

let t: TestKernel
let ws: TestWorkspace

beforeAll(async () => {
  t = await startTestKernel({
    roles: ['api', 'worker'],
    builtins: [...FAKE_RENDER_BUILTINS, pdfToolsPlugin] as PluginManifest<never>[],
  })
  ws = await t.createWorkspace({ plan: 'scale' })
  await t.setPlanLimits('scale', { requests_per_second: 10_000, test_renders_per_minute: 10_000 })
})
afterAll(() => t?.close())

async function files(name: string, body: object, key = ws.testKey): Promise<Buffer[]> {
  const res = await t.inject({ method: 'POST', url: `/v1/pdf-tools/${name}`, key, payload: body })
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
  const out = []
  for (const file of res.json().files as { url: string }[]) {
    const { pathname, search } = new URL(file.url)
    out.push((await t.inject({ method: 'GET', url: pathname + search })).rawPayload)
  }
  return out
}

/** Every page reads TEST besides its own text, and every font is embedded. */
function expectMarked(pdf: Buffer, pages: number) {
  const texts = pdfPageTexts(pdf)
  expect(texts).toHaveLength(pages)
  for (const [i, text] of texts.entries()) expect(text, `page ${i + 1}`).toContain('TEST')
  expect(pdfFonts(pdf).find((f) => f.name.endsWith('DejaVuSans-Bold'))).toMatchObject({ embedded: true })
}

describe('the TEST mark on PDF tool outputs', () => {
  it('marks every page a test merge, rotate or metadata change returns', async () => {
    const [merged] = await files('merge', { sources: [source(ALPHA), source(BETA)] })
    expectMarked(merged!, 5)
    const [rotated] = await files('rotate', { source: source(BETA), degrees: 90, pages: '2' })
    expectMarked(rotated!, 3)
    const [titled] = await files('metadata', { source: source(ALPHA), set: { title: 'Marked' } })
    expectMarked(titled!, 2)
  })

  it('marks each part of a test split, as files and inside a zip', async () => {
    const parts = await files('split', { source: source(BETA), every: 1 })
    expect(parts).toHaveLength(3)
    for (const part of parts) expectMarked(part, 1)
    const [zip] = await files('split', { source: source(BETA), ranges: ['1', '2-3'], zip: true })
    const entries = Object.values(unzipSync(new Uint8Array(zip!)))
    expect(entries.map((e) => pdfPageTexts(Buffer.from(e)).length)).toEqual([1, 2])
    for (const entry of entries) expectMarked(Buffer.from(entry), pdfPageTexts(Buffer.from(entry)).length)
  })

  it('marks the pages a test protect encrypts and a test unlock decrypts', async () => {
    const [locked] = await files('protect', { source: source(ALPHA), user_password: 'pw' })
    expectMarked(qpdfRewrite(locked!, ['--password=pw', '--decrypt']), 2)
    const [unlocked] = await files('unlock', { source: source(ENCRYPTED), password: 'user-pw' })
    expectMarked(unlocked!, 2)
  })

  it('leaves live outputs clean', async () => {
    const [merged] = await files('merge', { sources: [source(ALPHA), source(BETA)] }, ws.liveKey)
    expect(pdfPageTexts(merged!).join('')).not.toContain('TEST')
    const [unlocked] = await files('unlock', { source: source(ENCRYPTED), password: 'user-pw' }, ws.liveKey)
    expect(pdfPageTexts(unlocked!).join('')).not.toContain('TEST')
  })
})
