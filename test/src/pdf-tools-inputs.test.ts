import {
  ghostscriptPdf,
  mutoolOpens,
  pdfInfo,
  pdfPages,
  pdfPageTexts,
  qpdfCheck,
  qpdfRewrite,
} from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_RENDER_BUILTINS } from '../../core/src/renders/fake-render-plugins.fixture.ts'
import type { PluginManifest } from '../../core/src/sdk/define-plugin.ts'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'
import { pdfToolsPlugin } from '../../plugins/pdf-tools/src/index.ts'

// The tools on PDFs shaped by other software: linearized, object streams, and RC4 / AES-128 /
// AES-256 encryption made by qpdf. Every output passes qpdf --check and opens in mupdf. SQLite
// only: the database side is covered by pdf-tools-api.test.ts on both dialects.

const BASE = ghostscriptPdf(['First page', 'Second page', 'Third page'])
const SHAPES: Record<string, Buffer> = {
  'a linearized PDF': qpdfRewrite(BASE, ['--linearize']),
  'a PDF with object streams': qpdfRewrite(BASE, ['--object-streams=generate']),
  'a linearized PDF with object streams': qpdfRewrite(BASE, ['--linearize', '--object-streams=generate']),
}
const ENCRYPTED: Record<string, Buffer> = {
  'RC4 40-bit': qpdfRewrite(BASE, ['--allow-weak-crypto', '--encrypt', 'u', 'o', '40', '--']),
  'RC4 128-bit': qpdfRewrite(BASE, [
    '--allow-weak-crypto',
    '--encrypt',
    'u',
    'o',
    '128',
    '--use-aes=n',
    '--',
  ]),
  'AES-128': qpdfRewrite(BASE, ['--encrypt', 'u', 'o', '128', '--use-aes=y', '--']),
  'AES-256': qpdfRewrite(BASE, ['--encrypt', 'u', 'o', '256', '--']),
}
const TEXTS = ['First page', 'Second page', 'Third page']

let t: TestKernel
let ws: TestWorkspace

beforeAll(async () => {
  t = await startTestKernel({
    roles: ['api', 'worker'],
    builtins: [...FAKE_RENDER_BUILTINS, pdfToolsPlugin] as PluginManifest<never>[],
  })
  ws = await t.createWorkspace({ plan: 'scale' })
  await t.setPlanLimits('scale', { requests_per_second: 10_000 })
})
afterAll(() => t?.close())

const tool = (name: string, body: object) =>
  t.inject({
    method: 'POST',
    url: `/v1/pdf-tools/${name}`,
    key: ws.liveKey,
    payload: { delivery: 'binary', ...body },
  })
const source = (bytes: Buffer) => ({ data_uri: `data:application/pdf;base64,${bytes.toString('base64')}` })

function expectSound(pdf: Buffer) {
  expect(qpdfCheck(pdf).ok).toBe(true)
  expect(mutoolOpens(pdf)).toBe(true)
}

describe.each(Object.entries(SHAPES))('%s', (_shape, input) => {
  it('merges, rotates, splits and reads its metadata', async () => {
    const merged = await tool('merge', { sources: [source(input), source(BASE)] })
    expect(merged.statusCode).toBe(200)
    expect(pdfPageTexts(merged.rawPayload).map((p) => p.trim())).toEqual([...TEXTS, ...TEXTS])
    expectSound(merged.rawPayload)
    const rotated = await tool('rotate', { source: source(input), degrees: 270, pages: '1,3' })
    expect(pdfPages(rotated.rawPayload).map((p) => p.rotation)).toEqual([270, 0, 270])
    expectSound(rotated.rawPayload)
    const split = await tool('split', { source: source(input), ranges: ['2-'] })
    expect(pdfPageTexts(split.rawPayload).map((p) => p.trim())).toEqual(TEXTS.slice(1))
    expectSound(split.rawPayload)
    const meta = await t.inject({
      method: 'POST',
      url: '/v1/pdf-tools/metadata',
      key: ws.liveKey,
      payload: { source: source(input) },
    })
    expect(meta.json().result).toMatchObject({ pages: 3, encrypted: false })
  })
})

describe.each(Object.entries(ENCRYPTED))('a PDF encrypted with %s', (_kind, input) => {
  it('unlocks with the user password and with the owner password, and refuses a wrong one', async () => {
    for (const password of ['u', 'o']) {
      const res = await tool('unlock', { source: source(input), password })
      expect(res.statusCode).toBe(200)
      expect(pdfInfo(res.rawPayload).Encrypted).toBe('no')
      expect(pdfPageTexts(res.rawPayload).map((p) => p.trim())).toEqual(TEXTS)
      expectSound(res.rawPayload)
    }
    const wrong = await tool('unlock', { source: source(input), password: 'x' })
    expect(wrong.statusCode).toBe(422)
    expect(wrong.json().code).toBe('pdf_password_required')
    const meta = await t.inject({
      method: 'POST',
      url: '/v1/pdf-tools/metadata',
      key: ws.liveKey,
      payload: { source: source(input) },
    })
    expect(meta.json().result).toMatchObject({ pages: 3, encrypted: true, metadata: null })
  })
})
