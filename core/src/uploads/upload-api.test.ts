import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, TEST_DIALECTS, type TestKernel, type TestWorkspace } from '../testing/index.ts'
import { fileBody, multipartBody, streamedFileBody } from './multipart-body.fixture.ts'

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex')

describe.each(TEST_DIALECTS)('POST /v1/uploads on %s', (dialect) => {
  let t: TestKernel
  let ws: TestWorkspace

  beforeAll(async () => {
    t = await startTestKernel({ dialect })
    ws = await t.createWorkspace({ plan: 'scale' })
  })
  afterAll(() => t?.close())

  const upload = (
    body: { payload: unknown; headers: Record<string, string> },
    key = ws.liveKey,
    headers = {},
  ) =>
    t.inject({
      method: 'POST',
      url: '/v1/uploads',
      key,
      payload: body.payload as Buffer,
      headers: { ...body.headers, ...headers },
    })

  function expectProblem(res: Awaited<ReturnType<typeof upload>>, status: number, code: string) {
    expect(res.statusCode).toBe(status)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ status, code })
  }

  /** Spooled copies left behind; onResponse removes them just after the answer is sent. */
  async function spooled(): Promise<string[]> {
    const dir = path.join(t.dataDir, 'tmp', 'uploads')
    let left: string[] = []
    for (let i = 0; i < 20; i++) {
      left = existsSync(dir) ? readdirSync(dir) : []
      if (left.length === 0) break
      await new Promise((r) => setTimeout(r, 25))
    }
    return left
  }

  it('stores a PDF: 201 with an upl_ id, its size, hash and a 24-hour expiry, and the bytes in the file store', async () => {
    const res = await upload(fileBody(PDF, 'invoice.pdf'))
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(body).toMatchObject({
      object: 'upload',
      filename: 'invoice.pdf',
      content_type: 'application/pdf',
      size: PDF.length,
      test: false,
    })
    expect(body.id).toMatch(/^upl_[0-9a-z]{26}$/)
    expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBe(24 * 3600 * 1000)
    const { uploadService, fileStore } = t.kernel.container.cradle
    const record = await uploadService.get({ workspaceId: ws.workspace.id, test: false }, body.id)
    const stored = await fileStore.get(record.storage_key)
    const chunks: Buffer[] = []
    for await (const c of stored!.stream) chunks.push(c as Buffer)
    expect(Buffer.concat(chunks).equals(PDF)).toBe(true)
    expect(await spooled()).toEqual([])
  })

  it('takes CSV text for batches', async () => {
    const res = await upload(fileBody(Buffer.from('name,total\nAda,12.50\n'), 'items.csv', 'text/csv'))
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ content_type: 'text/csv', filename: 'items.csv' })
  })

  it('answers 415 for a PNG named .pdf: the bytes decide, not the name', async () => {
    expectProblem(await upload(fileBody(PNG, 'scan.pdf', 'application/pdf')), 415, 'unsupported_media_type')
    expect(await spooled()).toEqual([])
  })

  it('answers 415 for a zip bomb, which is never opened', async () => {
    const bomb = Buffer.from(zipSync({ 'zeros.bin': new Uint8Array(16 * 1024 * 1024) }, { level: 9 }))
    expect(bomb.length).toBeLessThan(50_000)
    expectProblem(await upload(fileBody(bomb, 'bomb.zip', 'application/zip')), 415, 'unsupported_media_type')
  })

  it('answers 415 for a body that is not multipart', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/uploads',
      key: ws.liveKey,
      payload: { file: 'x' },
    })
    expectProblem(res, 415, 'unsupported_media_type')
  })

  it('answers 400 for an empty file, a missing file field and a second file', async () => {
    const empty = await upload(fileBody(Buffer.alloc(0)))
    expectProblem(empty, 400, 'validation_error')
    expect(empty.json().errors).toEqual([{ path: '/file', code: 'empty', message: 'the file is empty' }])
    const none = await upload(multipartBody([{ name: 'note', value: 'no file here' }]))
    expectProblem(none, 400, 'validation_error')
    expect(none.json().errors[0]).toMatchObject({ path: '/file', code: 'required' })
    const wrongField = await upload(multipartBody([{ name: 'document', value: PDF, filename: 'a.pdf' }]))
    expectProblem(wrongField, 400, 'validation_error')
    const two = await upload(
      multipartBody([
        { name: 'file', value: PDF, filename: 'a.pdf' },
        { name: 'file', value: PDF, filename: 'b.pdf' },
      ]),
    )
    expectProblem(two, 400, 'validation_error')
    expect(await spooled()).toEqual([])
  })

  it('answers 400 for a multipart body cut off mid-part, in our words and not the parser words', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/uploads',
      key: ws.liveKey,
      headers: { 'content-type': 'multipart/form-data; boundary=cut' },
      payload: `--cut\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n${PDF.toString('latin1')}`,
    })
    expectProblem(res, 400, 'validation_error')
    expect(res.json().errors).toEqual([
      {
        path: '/file',
        code: 'invalid',
        message:
          'the multipart body cannot be read: its boundary is missing or it ends in the middle of a part',
      },
    ])
    expect(await spooled()).toEqual([])
  })

  it('answers 413 past 50 MB, counting a streamed body without a declared length', async () => {
    const res = await upload(streamedFileBody(50 * 1000 * 1000 + 1))
    expectProblem(res, 413, 'payload_too_large')
    expect(await spooled()).toEqual([])
  }, 60_000)

  it("answers 413 past the plan's body limit when it is lower than 50 MB", async () => {
    const free = await t.createWorkspace({ plan: 'free' })
    const res = await upload(streamedFileBody(6 * 1000 * 1000), free.testKey)
    expectProblem(res, 413, 'payload_too_large')
  })

  it('needs the render:write scope', async () => {
    const { key } = await t.createKey({
      workspaceId: ws.workspace.id,
      mode: 'live',
      scopes: ['renders:read'],
    })
    expectProblem(await upload(fileBody(PDF), key), 403, 'insufficient_scope')
  })

  it('replays with the same Idempotency-Key and the same file, and refuses another file under that key', async () => {
    const key = `upl-${dialect}-${Date.now()}`
    const first = await upload(fileBody(PDF, 'a.pdf'), ws.liveKey, { 'idempotency-key': key })
    const again = await upload(fileBody(PDF, 'a.pdf'), ws.liveKey, { 'idempotency-key': key })
    expect(first.statusCode).toBe(201)
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json().id).toBe(first.json().id)
    const other = Buffer.concat([PDF, Buffer.from('% another revision\n')])
    expectProblem(
      await upload(fileBody(other, 'a.pdf'), ws.liveKey, { 'idempotency-key': key }),
      422,
      'idempotency_key_reused',
    )
    expect(await spooled()).toEqual([])
  })

  it('keeps uploads 24 hours: the sweep removes expired ones, file and record', async () => {
    const res = await upload(fileBody(PDF))
    const { uploadService, uploadSweeper, fileStore } = t.kernel.container.cradle
    const owner = { workspaceId: ws.workspace.id, test: false }
    const record = await uploadService.get(owner, res.json().id)
    const later = new Date(Date.now() + 24 * 3600 * 1000 + 1000)
    await expect(uploadService.get(owner, record.id, later)).rejects.toMatchObject({
      code: 'upload_not_found',
    })
    expect(await uploadSweeper.sweep(later)).toBeGreaterThanOrEqual(1)
    expect(await fileStore.get(record.storage_key)).toBeUndefined()
    await expect(uploadService.get(owner, record.id)).rejects.toMatchObject({ code: 'upload_not_found' })
  })
})
