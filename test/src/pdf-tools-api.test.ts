import { existsSync, readdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import {
  ghostscriptPdf,
  mutoolOpens,
  pdfInfo,
  pdfInfoWithPassword,
  pdfPages,
  pdfPageTexts,
  pdfXmp,
  qpdfCheck,
  qpdfReport,
  qpdfRewrite,
} from '@docsvc/core/testing'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LocalFileStore } from '../../core/src/files/local-file-store.ts'
import { FAKE_RENDER_BUILTINS } from '../../core/src/renders/fake-render-plugins.fixture.ts'
import type { PluginManifest } from '../../core/src/sdk/define-plugin.ts'
import {
  startTestKernel,
  TEST_DIALECTS,
  type TestKernel,
  type TestWorkspace,
} from '../../core/src/testing/index.ts'
import { fileBody } from '../../core/src/uploads/multipart-body.fixture.ts'
import { pdfToolsPlugin } from '../../plugins/pdf-tools/src/index.ts'

// The PDF tool routes (SPEC 4.4) over HTTP on both databases: each status and code, with the
// outputs read by poppler, qpdf and mupdf. Inputs are made by Ghostscript and qpdf, never by us.
// The stand-in render plugins keep the worker browser-free.

const ALPHA = ghostscriptPdf(['Alpha one', 'Alpha two'])
const BETA = ghostscriptPdf(['Beta one', 'Beta two', 'Beta three'])
const LETTER = ghostscriptPdf(['Letter page'], { width: 612, height: 792 })
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')
const ENCRYPTED = qpdfRewrite(ALPHA, ['--encrypt', 'user-pw', 'owner-pw', '256', '--'])

const dataUri = (bytes: Buffer) => `data:application/pdf;base64,${bytes.toString('base64')}`
const source = (bytes: Buffer) => ({ data_uri: dataUri(bytes) })

let site: Server
let siteUrl: string

beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url === '/files/beta.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(BETA)
    else res.writeHead(404).end('missing')
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())))

describe.each(TEST_DIALECTS)('PDF tools over HTTP on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({
      dialect,
      roles: ['api', 'worker'],
      builtins: [...FAKE_RENDER_BUILTINS, pdfToolsPlugin] as PluginManifest<never>[],
      env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32' },
    })
    ws = await t.createWorkspace({ plan: 'scale' })
    await t.setPlanLimits('scale', { requests_per_second: 10_000, test_renders_per_minute: 10_000 })
  })
  afterAll(() => t?.close())

  const tool = (name: string, body: object, key = ws.liveKey, headers: Record<string, string> = {}) =>
    t.inject({ method: 'POST', url: `/v1/pdf-tools/${name}`, key, payload: body, headers })

  async function fileOf(res: { json(): { files: { url: string }[] } }, index = 0): Promise<Buffer> {
    const { pathname } = new URL(res.json().files[index]!.url)
    return (await t.inject({ method: 'GET', url: pathname })).rawPayload
  }

  async function billed(renderId: string): Promise<boolean> {
    const row = await t.kernel.db.kysely
      .selectFrom('billed_renders')
      .select('render_id')
      .where('render_id', '=', renderId)
      .executeTakeFirst()
    return row !== undefined
  }

  function expectProblem(
    res: { statusCode: number; json(): Record<string, unknown> },
    status: number,
    code: string,
  ) {
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code })
    expect(res.json().status).toBe(status)
  }

  async function upload(bytes: Buffer, name: string): Promise<string> {
    const body = fileBody(bytes, name)
    const res = await t.inject({
      method: 'POST',
      url: '/v1/uploads',
      key: ws.liveKey,
      payload: body.payload,
      headers: body.headers,
    })
    expect(res.statusCode).toBe(201)
    return res.json().id
  }

  describe('merge', () => {
    it('merges sources of every kind in order, with a bookmark per file name; one billed render', async () => {
      const uploadId = await upload(LETTER, 'letter.pdf')
      const res = await tool('merge', {
        sources: [source(ALPHA), { url: `${siteUrl}/files/beta.pdf` }, { upload_id: uploadId }],
        bookmarks: 'filenames',
        filename: 'bundle.pdf',
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ status: 'succeeded', input_type: 'pdf_tool', output_format: 'pdf' })
      expect(res.json().files).toHaveLength(1)
      expect(res.json().files[0]).toMatchObject({ format: 'pdf', pages: 6, filename: 'bundle.pdf' })
      const merged = await fileOf(res)
      const texts = pdfPageTexts(merged).map((p) => p.trim())
      expect(texts).toEqual(['Alpha one', 'Alpha two', 'Beta one', 'Beta two', 'Beta three', 'Letter page'])
      expect(pdfPages(merged).map((p) => `${p.width}x${p.height}`)).toEqual([
        ...Array(5).fill('595x842'),
        '612x792',
      ])
      expect(qpdfCheck(merged).ok).toBe(true)
      expect(mutoolOpens(merged)).toBe(true)
      const outline = qpdfReport(merged, ['--json', '--json-key=outlines'])
      expect(JSON.parse(outline).outlines.map((o: { title: string }) => o.title)).toEqual([
        'source-1.pdf',
        'beta.pdf',
        'letter.pdf',
      ])
      expect(await billed(res.json().id)).toBe(true)
    })

    it('answers 400 validation_error for 201 sources and for 1', async () => {
      const many = await tool('merge', {
        sources: Array.from({ length: 201 }, () => ({ upload_id: 'upl_x' })),
      })
      expectProblem(many, 400, 'validation_error')
      expect(many.json().errors).toContainEqual(expect.objectContaining({ path: '/sources' }))
      expectProblem(await tool('merge', { sources: [source(ALPHA)] }), 400, 'validation_error')
    })

    it('answers 400 for a source with two kinds or none, naming it', async () => {
      const res = await tool('merge', {
        sources: [source(ALPHA), { url: `${siteUrl}/a.pdf`, upload_id: 'upl_1' }],
      })
      expectProblem(res, 400, 'validation_error')
      expect(res.json().errors).toContainEqual(
        expect.objectContaining({ path: '/sources/1', code: 'one_of' }),
      )
      const none = await tool('rotate', { source: {}, degrees: 90 })
      expect(none.json().errors).toContainEqual(expect.objectContaining({ path: '/source', code: 'one_of' }))
    })
  })

  describe('sources', () => {
    it('answers 404 upload_not_found for an unknown upload, before any render is made', async () => {
      const res = await tool('rotate', {
        source: { upload_id: 'upl_01nosuchupload00000000000' },
        degrees: 90,
      })
      expectProblem(res, 404, 'upload_not_found')
      expect(res.json().render_id).toBeUndefined()
    })

    it("takes the workspace's own renders only, and a test key only test renders", async () => {
      const made = await tool('rotate', { source: source(ALPHA), degrees: 90 })
      const id = made.json().id
      const again = await tool('split', { source: { render_id: id }, every: 1 })
      expect(again.statusCode).toBe(200)
      expect(again.json().files.map((f: { pages: number }) => f.pages)).toEqual([1, 1])
      const other = await t.createWorkspace({ plan: 'scale' })
      expectProblem(
        await tool('split', { source: { render_id: id }, every: 1 }, other.liveKey),
        404,
        'render_not_found',
      )
      expectProblem(
        await tool('split', { source: { render_id: id }, every: 1 }, ws.testKey),
        404,
        'render_not_found',
      )
      const missingFile = await tool('split', { source: { render_id: id, file_id: 'file_nope' }, every: 1 })
      expectProblem(missingFile, 404, 'not_found')
    })

    it('answers 422 asset_fetch_failed for a URL that does not answer with the file', async () => {
      const res = await tool('rotate', { source: { url: `${siteUrl}/files/missing.pdf` }, degrees: 90 })
      expectProblem(res, 422, 'asset_fetch_failed')
      expect(res.json().render_id).toMatch(/^rnd_/)
    })

    it('answers 422 url_not_allowed for a private address', async () => {
      expectProblem(
        await tool('rotate', { source: { url: 'http://10.0.0.8/a.pdf' }, degrees: 90 }),
        422,
        'url_not_allowed',
      )
    })

    it('answers 422 invalid_pdf_source for a PNG, an empty file, a truncated PDF; the worker keeps going', async () => {
      const png = await tool('rotate', {
        source: { data_uri: `data:application/pdf;base64,${PNG.toString('base64')}` },
        degrees: 90,
      })
      expectProblem(png, 422, 'invalid_pdf_source')
      expect(png.json().render_error).toMatchObject({ code: 'invalid_pdf_source' })
      expect(await billed(png.json().render_id)).toBe(false)
      expectProblem(
        await tool('rotate', { source: { data_uri: 'data:application/pdf;base64,' }, degrees: 90 }),
        422,
        'invalid_pdf_source',
      )
      const truncated = ALPHA.subarray(0, Math.floor(ALPHA.length / 3))
      expectProblem(
        await tool('merge', { sources: [source(ALPHA), source(truncated)] }),
        422,
        'invalid_pdf_source',
      )
      const ok = await tool('rotate', { source: source(ALPHA), degrees: 180 })
      expect(ok.statusCode).toBe(200)
    })

    it('repairs a PDF whose xref table is broken, as qpdf reads it', async () => {
      const broken = Buffer.from(
        ALPHA.toString('latin1').replace(/startxref\s+\d+/, 'startxref\n999999'),
        'latin1',
      )
      const res = await tool('rotate', { source: source(broken), degrees: 90 })
      expect(res.statusCode).toBe(200)
      const out = await fileOf(res)
      expect(qpdfCheck(out).ok).toBe(true)
      expect(pdfPages(out).map((p) => p.rotation)).toEqual([90, 90])
    })

    it('answers 422 pdf_password_required for an encrypted source of merge, rotate, split and protect', async () => {
      for (const [name, body] of [
        ['merge', { sources: [source(ALPHA), source(ENCRYPTED)] }],
        ['rotate', { source: source(ENCRYPTED), degrees: 90 }],
        ['split', { source: source(ENCRYPTED), every: 1 }],
        ['protect', { source: source(ENCRYPTED), user_password: 'x' }],
      ] as const) {
        expectProblem(await tool(name, body), 422, 'pdf_password_required')
      }
    })
  })

  describe('rotate', () => {
    it('adds degrees to the listed pages only, anticlockwise for negatives', async () => {
      const turned = qpdfRewrite(BETA, ['--rotate=+90:2'])
      const res = await tool('rotate', { source: source(turned), degrees: -90, pages: '2-' })
      expect(res.statusCode).toBe(200)
      const out = await fileOf(res)
      expect(pdfPages(out).map((p) => p.rotation)).toEqual([0, 0, 270])
      expect(qpdfCheck(out).ok).toBe(true)
      expect(await billed(res.json().id)).toBe(true)
    })

    it('answers validation_error naming a page outside the document', async () => {
      const res = await tool('rotate', { source: source(ALPHA), degrees: 90, pages: '1,3-5' })
      // SPEC 7.3: a failed render answers 422, also with validation_error
      expect(res.statusCode).toBe(422)
      expect(res.json().status).toBe(422)
      expect(res.json()).toMatchObject({
        code: 'validation_error',
        render_error: { code: 'validation_error' },
      })
      expect(res.json().detail).toMatch(/page 5.*2 pages/)
      expect(res.json().render_id).toMatch(/^rnd_/)
    })

    it('answers 400 validation_error for page 0, -1, 3-1 and a-b before any render', async () => {
      for (const pages of ['0', '-1', '3-1', 'a-b', '']) {
        const res = await tool('rotate', { source: source(ALPHA), degrees: 90, pages })
        expectProblem(res, 400, 'validation_error')
        expect(res.json().errors[0].path).toBe('/pages')
        expect(res.json().render_id).toBeUndefined()
      }
      expectProblem(await tool('rotate', { source: source(ALPHA), degrees: 45 }), 400, 'validation_error')
    })
  })

  describe('split', () => {
    it('makes <stem>-<n>.pdf per range, in order', async () => {
      const res = await tool('split', { source: source(BETA), ranges: ['3', '1-2'], filename: 'parts.pdf' })
      expect(res.statusCode).toBe(200)
      const files = res.json().files
      expect(files.map((f: { filename: string; pages: number }) => [f.filename, f.pages])).toEqual([
        ['parts-1.pdf', 1],
        ['parts-2.pdf', 2],
      ])
      expect(pdfPageTexts(await fileOf(res, 0)).map((p) => p.trim())).toEqual(['Beta three'])
      expect(pdfPageTexts(await fileOf(res, 1)).map((p) => p.trim())).toEqual(['Beta one', 'Beta two'])
      expect(await billed(res.json().id)).toBe(true)
    })

    it('splits every n pages, named split-<n>.pdf by default', async () => {
      const res = await tool('split', { source: source(BETA), every: 2 })
      expect(res.json().files.map((f: { filename: string; pages: number }) => [f.filename, f.pages])).toEqual(
        [
          ['split-1.pdf', 2],
          ['split-2.pdf', 1],
        ],
      )
      for (const i of [0, 1]) expect(qpdfCheck(await fileOf(res, i)).ok).toBe(true)
    })

    it('moves its parts into the store and leaves no scratch folder behind', async () => {
      const { scratchDirs } = t.kernel.container.cradle
      const res = await tool('split', { source: source(BETA), every: 1 })
      expect(res.statusCode).toBe(200)
      const texts = await Promise.all([0, 1, 2].map(async (i) => pdfPageTexts(await fileOf(res, i))))
      expect(texts.map((pages) => pages.map((p) => p.trim()))).toEqual([
        ['Beta one'],
        ['Beta two'],
        ['Beta three'],
      ])
      expect(res.json().files.map((f: { size: number }) => f.size)).toEqual(
        await Promise.all([0, 1, 2].map(async (i) => (await fileOf(res, i)).length)),
      )
      await vi.waitFor(() => expect(readdirSync(scratchDirs.root)).toEqual([]))
    })

    it('splits every page alike whether the PDF shows its pages or keeps them in object streams', async () => {
      // shown: odd and even pages split side by side; in object streams: one split beside a count
      const hidden = qpdfRewrite(BETA, ['--object-streams=generate'])
      for (const pdf of [BETA, hidden]) {
        const res = await tool('split', { source: source(pdf), every: 1, filename: 'beta.pdf' })
        expect(
          res.json().files.map((f: { filename: string; pages: number }) => [f.filename, f.pages]),
        ).toEqual([
          ['beta-1.pdf', 1],
          ['beta-2.pdf', 1],
          ['beta-3.pdf', 1],
        ])
        const texts = await Promise.all([0, 1, 2].map(async (i) => pdfPageTexts(await fileOf(res, i))))
        expect(texts.map((pages) => pages.map((p) => p.trim()))).toEqual([
          ['Beta one'],
          ['Beta two'],
          ['Beta three'],
        ])
      }
      // one page: the even half is empty
      const one = await tool('split', { source: source(LETTER), every: 1 })
      expect(one.json().files.map((f: { filename: string }) => f.filename)).toEqual(['split-1.pdf'])
      expect(pdfPageTexts(await fileOf(one, 0)).map((p) => p.trim())).toEqual(['Letter page'])
    })

    it('keeps none of the parts when moving them into the store fails', async () => {
      const store = t.kernel.container.cradle.fileStore as LocalFileStore
      const putFiles = store.putFiles.bind(store)
      // every part moved in, then the flush fails
      const spy = vi.spyOn(store, 'putFiles').mockImplementation(async (files) => {
        await putFiles(files)
        throw new Error('disk full')
      })
      try {
        const res = await tool('split', { source: source(BETA), every: 1 })
        expectProblem(res, 422, 'render_failed')
        const renderId = res.json().render_id as string
        expect(renderId).toMatch(/^rnd_/)
        expect(existsSync(path.join(store.root, ws.workspace.id, renderId))).toBe(false)
        const { scratchDirs } = t.kernel.container.cradle
        await vi.waitFor(() => expect(readdirSync(scratchDirs.root)).toEqual([]))
      } finally {
        spy.mockRestore()
      }
    })

    it('puts the parts one by one on a store that cannot move files in, and keeps none when one fails', async () => {
      const store = t.kernel.container.cradle.fileStore as LocalFileStore
      const put = store.put.bind(store)
      let calls = 0
      const spy = vi.spyOn(store, 'put').mockImplementation(async (key, bytes, type) => {
        if (++calls === 5) throw new Error('disk full')
        return put(key, bytes, type)
      })
      Object.assign(store, { putFiles: undefined })
      try {
        const ok = await tool('split', { source: source(BETA), every: 1 })
        expect(ok.statusCode).toBe(200)
        expect(pdfPageTexts(await fileOf(ok, 2)).map((p) => p.trim())).toEqual(['Beta three'])
        expect(calls).toBe(3)
        const res = await tool('split', { source: source(BETA), every: 1 })
        expectProblem(res, 422, 'render_failed')
        // the parts stored before the failure are gone again, their folder with them
        expect(existsSync(path.join(store.root, ws.workspace.id, res.json().render_id as string))).toBe(false)
      } finally {
        spy.mockRestore()
        delete (store as { putFiles?: unknown }).putFiles
      }
    })

    it('puts the parts in one <stem>.zip with zip: true, and binary delivery sends it', async () => {
      const res = await tool('split', {
        source: source(BETA),
        every: 1,
        zip: true,
        delivery: 'binary',
        filename: 'pages',
      })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('application/zip')
      expect(res.headers['content-disposition']).toContain('pages.zip')
      const entries = unzipSync(new Uint8Array(res.rawPayload))
      expect(Object.keys(entries)).toEqual(['pages-1.pdf', 'pages-2.pdf', 'pages-3.pdf'])
      expect(pdfPageTexts(Buffer.from(entries['pages-2.pdf']!)).map((p) => p.trim())).toEqual(['Beta two'])
    })

    it('answers 400 for binary delivery of several files, and for both or neither of ranges and every', async () => {
      const binary = await tool('split', { source: source(BETA), ranges: ['1', '2'], delivery: 'binary' })
      expectProblem(binary, 400, 'validation_error')
      expect(binary.json().errors).toContainEqual(expect.objectContaining({ path: '/delivery' }))
      const one = await tool('split', { source: source(BETA), ranges: ['2-'], delivery: 'binary' })
      expect(one.statusCode).toBe(200)
      expect(pdfInfo(one.rawPayload).Pages).toBe('2')
      expectProblem(
        await tool('split', { source: source(BETA), ranges: ['1'], every: 1 }),
        400,
        'validation_error',
      )
      expectProblem(await tool('split', { source: source(BETA) }), 400, 'validation_error')
      expectProblem(
        await tool('split', { source: source(BETA), ranges: ['1', '3-1'] }),
        400,
        'validation_error',
      )
    })

    it('carries every file in base64 delivery', async () => {
      const res = await tool('split', { source: source(ALPHA), every: 1, delivery: 'base64' })
      const files = res.json().files
      expect(files).toHaveLength(2)
      expect(pdfPageTexts(Buffer.from(files[1].data, 'base64')).map((p) => p.trim())).toEqual(['Alpha two'])
    })

    it('answers validation_error for a range past the end, and for more than 200 outputs', async () => {
      const past = await tool('split', { source: source(ALPHA), ranges: ['1', '4-'] })
      expect(past.statusCode).toBe(422)
      expect(past.json()).toMatchObject({
        code: 'validation_error',
        render_id: expect.stringMatching(/^rnd_/),
      })
      expect(past.json().detail).toMatch(/page 4/)
      const many = ghostscriptPdf(Array.from({ length: 201 }, (_, i) => `Page ${i + 1}`))
      const res = await tool('split', { source: source(many), every: 1 })
      expect(res.statusCode).toBe(422)
      expect(res.json()).toMatchObject({ code: 'validation_error' })
      expect(res.json().detail).toMatch(/201 files/)
    })
  })

  describe('protect and unlock', () => {
    it('encrypts with AES-256 and the default permissions; opens only with a password', async () => {
      const res = await tool('protect', {
        source: source(ALPHA),
        user_password: 'open sesame',
        owner_password: 'owner',
      })
      expect(res.statusCode).toBe(200)
      const out = await fileOf(res)
      const info = pdfInfoWithPassword(out, 'open sesame')!
      expect(info.Encrypted).toBe('yes (print:yes copy:yes change:no addNotes:no algorithm:AES-256)')
      expect(info.Pages).toBe('2')
      expect(pdfInfoWithPassword(out, 'wrong')).toBeUndefined()
      expect(mutoolOpens(out, 'open sesame')).toBe(true)
      expect(mutoolOpens(out, 'owner')).toBe(true)
      expect(mutoolOpens(out, 'wrong')).toBe(false)
      expect(mutoolOpens(out)).toBe(false)
      expect(qpdfCheck(out, 'owner').ok).toBe(true)
      const encryption = qpdfReport(out, ['--password=owner', '--show-encryption'])
      expect(encryption).toMatch(/R = 6/)
      expect(encryption).toMatch(/print high resolution: allowed/)
      expect(encryption).toMatch(/modify forms: allowed/)
      expect(encryption).toMatch(/modify document assembly: not allowed/)
      expect(encryption).toMatch(/modify annotations: not allowed/)
      expect(await billed(res.json().id)).toBe(true)
    })

    it('sets the permission flags it is given; with only an owner password anyone opens it, restricted', async () => {
      const res = await tool('protect', {
        source: source(ALPHA),
        owner_password: 'owner',
        permissions: { print: false, copy: false, modify: true },
      })
      const out = await fileOf(res)
      expect(pdfInfo(out).Encrypted).toBe('yes (print:no copy:no change:yes addNotes:no algorithm:AES-256)')
      expect(mutoolOpens(out)).toBe(true)
    })

    it('takes passwords of any characters, a leading dash included, and unlocks with them', async () => {
      const password = '-dash start, spaces & ü'
      const res = await tool('protect', { source: source(ALPHA), user_password: password })
      expect(res.statusCode).toBe(200)
      const out = await fileOf(res)
      expect(pdfInfoWithPassword(out, password)?.Pages).toBe('2')
      expect(mutoolOpens(out, password)).toBe(true)
      const back = await tool('unlock', { source: source(out), password })
      expect(back.statusCode).toBe(200)
      expect(pdfInfo(await fileOf(back)).Encrypted).toBe('no')
    })

    it('answers 400 without any password', async () => {
      const res = await tool('protect', { source: source(ALPHA), user_password: null })
      expectProblem(res, 400, 'validation_error')
      expect(res.json().errors[0]).toMatchObject({ path: '/user_password', code: 'required' })
    })

    it('unlocks with the user or the owner password; a wrong one is 422 pdf_password_required', async () => {
      for (const password of ['user-pw', 'owner-pw']) {
        const res = await tool('unlock', { source: source(ENCRYPTED), password })
        expect(res.statusCode).toBe(200)
        const out = await fileOf(res)
        expect(pdfInfo(out).Encrypted).toBe('no')
        expect(pdfPageTexts(out).map((p) => p.trim())).toEqual(['Alpha one', 'Alpha two'])
        expect(mutoolOpens(out)).toBe(true)
        expect(await billed(res.json().id)).toBe(true)
      }
      const wrong = await tool('unlock', { source: source(ENCRYPTED), password: 'guess' })
      expectProblem(wrong, 422, 'pdf_password_required')
      expect(await billed(wrong.json().render_id)).toBe(false)
    })

    it('gives an unencrypted PDF back unchanged', async () => {
      const res = await tool('unlock', { source: source(ALPHA), password: 'anything' })
      expect((await fileOf(res)).equals(ALPHA)).toBe(true)
    })
  })

  describe('metadata', () => {
    it('reads pages, size runs, version and the Info fields; no file, not billed', async () => {
      const merged = await fileOf(
        await tool('merge', { sources: [source(ALPHA), source(LETTER), source(ALPHA)] }),
      )
      const res = await tool('metadata', { source: source(merged) })
      expect(res.statusCode).toBe(200)
      expect(res.json().files).toEqual([])
      expect(res.json().result.page_sizes).toEqual([
        { width: 595, height: 842, pages: 2 },
        { width: 612, height: 792, pages: 1 },
        { width: 595, height: 842, pages: 2 },
      ])
      const plain = await tool('metadata', { source: source(ALPHA) })
      expect(plain.json().result).toMatchObject({
        pages: 2,
        page_sizes: [{ width: 595, height: 842, pages: 2 }],
        encrypted: false,
        pdf_version: pdfInfo(ALPHA)['PDF version'],
        metadata: {
          title: null,
          author: null,
          keywords: null,
          producer: expect.stringContaining('Ghostscript'),
          lang: null,
        },
      })
      expect(Object.keys(plain.json().result.metadata).sort()).toEqual([
        'author',
        'created',
        'creator',
        'keywords',
        'lang',
        'modified',
        'producer',
        'subject',
        'title',
      ])
      expect(plain.json().result.metadata.created).toMatch(/^\d{4}-\d\d-\d\dT/)
      expect(await billed(plain.json().id)).toBe(false)
    })

    it('answers pages and encrypted: true with metadata null for a PDF that needs a password', async () => {
      const res = await tool('metadata', { source: source(ENCRYPTED) })
      expect(res.json().result).toMatchObject({ pages: 2, encrypted: true, metadata: null })
    })

    it('sets only the named fields, clears with "", null or [], and keeps XMP in step', async () => {
      const titled = await fileOf(
        await tool('metadata', { source: source(ALPHA), set: { title: 'Old', author: 'Ada', subject: 'S' } }),
      )
      const res = await tool('metadata', {
        source: source(titled),
        set: {
          title: 'Quarterly report – Q3',
          keywords: ['finance', 'q3'],
          author: '',
          subject: null,
          lang: 'de-DE',
        },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().result.metadata).toMatchObject({
        title: 'Quarterly report – Q3',
        author: null,
        subject: null,
        keywords: ['finance', 'q3'],
        lang: 'de-DE',
        producer: expect.stringContaining('Ghostscript'),
      })
      const out = await fileOf(res)
      const info = pdfInfo(out)
      expect(info.Title).toBe('Quarterly report – Q3')
      expect(info.Keywords).toBe('finance, q3')
      expect(info.Author).toBeUndefined()
      const xmp = pdfXmp(out)
      expect(xmp).toContain('<rdf:li xml:lang="x-default">Quarterly report – Q3</rdf:li>')
      expect(xmp).toContain('<pdf:Keywords>finance, q3</pdf:Keywords>')
      expect(qpdfCheck(out).ok).toBe(true)
      expect(mutoolOpens(out)).toBe(true)
    })

    it('answers 422 pdf_password_required for a set on an encrypted PDF, and 400 for binary without set', async () => {
      expectProblem(
        await tool('metadata', { source: source(ENCRYPTED), set: { title: 'x' } }),
        422,
        'pdf_password_required',
      )
      expectProblem(
        await tool('metadata', { source: source(ALPHA), delivery: 'binary' }),
        400,
        'validation_error',
      )
    })
  })

  describe('the RENDER set', () => {
    it('runs async: 202 with a Location, then succeeded', async () => {
      const res = await tool('rotate', { source: source(ALPHA), degrees: 90, mode: 'async' })
      expect(res.statusCode).toBe(202)
      expect(res.headers.location).toBe(`/v1/renders/${res.json().id}`)
      let status = res.json().status
      for (let i = 0; i < 100 && status !== 'succeeded'; i++) {
        await new Promise((r) => setTimeout(r, 50))
        status = (
          await t.inject({ method: 'GET', url: res.headers.location as string, key: ws.liveKey })
        ).json().status
      }
      expect(status).toBe('succeeded')
    })

    it('replays with the same Idempotency-Key', async () => {
      const key = `tool-${dialect}-${Date.now()}`
      const first = await tool('rotate', { source: source(ALPHA), degrees: 90 }, ws.liveKey, {
        'idempotency-key': key,
      })
      const again = await tool('rotate', { source: source(ALPHA), degrees: 90 }, ws.liveKey, {
        'idempotency-key': key,
      })
      expect(again.headers['idempotent-replayed']).toBe('true')
      expect(again.json().id).toBe(first.json().id)
    })

    it('bills no test render, and needs the render:write scope', async () => {
      const res = await tool('protect', { source: source(ALPHA), user_password: 'x' }, ws.testKey)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().test).toBe(true)
      expect(await billed(res.json().id)).toBe(false)
      const { key } = await t.createKey({
        workspaceId: ws.workspace.id,
        mode: 'live',
        scopes: ['renders:read'],
      })
      expectProblem(
        await tool('rotate', { source: source(ALPHA), degrees: 90 }, key),
        403,
        'insufficient_scope',
      )
    })

    it('once the renders are used up, refuses billed tools with 402 and still reads metadata', async () => {
      await t.setPlanLimits('free', { requests_per_second: 10_000, included_renders: 1 })
      const free = await t.createWorkspace({ plan: 'free' })
      const rotate = () => tool('rotate', { source: source(ALPHA), degrees: 90 }, free.liveKey)
      expect((await rotate()).statusCode).toBe(200)
      expectProblem(await rotate(), 402, 'render_limit_reached')
      // metadata is never billed (decision 0009), so the limit does not stop it
      const read = await tool('metadata', { source: source(ALPHA) }, free.liveKey)
      expect(read.statusCode, read.body).toBe(200)
      expect(await billed(read.json().id)).toBe(false)
    })
  })
})
