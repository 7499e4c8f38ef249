import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pdfAttachmentNames, pdfInfo, qpdfReport } from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'

// An image_canvas template rendered as a PDF is drawn by the scene renderer, not printed by the
// PDF output: its file must still get `pdf.metadata`, `pdf.attachments` and `pdf.protect`
// (decision 0121), and the page-setup options only a browser print can honour are refused at the
// field instead of being taken and ignored. Real plugins over HTTP.

let t: TestKernel
let ws: TestWorkspace
let templateId: string

beforeAll(async () => {
  t = await startTestKernel({ roles: ['api', 'worker'] })
  ws = await t.createWorkspace({ plan: 'scale' })
  const created = await t.inject({
    method: 'POST',
    url: '/v1/templates',
    key: ws.testKey,
    payload: {
      type: 'image_canvas',
      name: 'Card',
      content: {
        width: 300,
        height: 150,
        background: '#ffffff',
        layers: [{ name: 'box', type: 'rectangle', x: 10, y: 10, width: 100, height: 50, fill: '#336699' }],
      },
    },
  })
  expect(created.statusCode, created.body).toBe(201)
  templateId = created.json().id
}, 60_000)

afterAll(async () => {
  await t?.close()
})

function requiresPassword(pdf: Buffer): boolean {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-canvas-'))
  try {
    const file = path.join(dir, 'out.pdf')
    writeFileSync(file, pdf)
    return spawnSync('qpdf', ['--requires-password', file]).status === 0
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const render = (pdf: Record<string, unknown>) =>
  t.inject({
    method: 'POST',
    url: '/v1/renders',
    key: ws.testKey,
    payload: {
      delivery: 'binary',
      input: { type: 'template', template_id: templateId, version: 'draft' },
      output: { format: 'pdf', pdf },
    },
  })

describe('an image_canvas template rendered as a PDF', () => {
  it('is finished like every other PDF: metadata, attachments, then protection', async () => {
    const res = await render({
      metadata: { title: 'Canvas card', author: 'Ada' },
      attachments: [{ name: 'data.csv', data_uri: 'data:text/csv;base64,YSxiCjEsMgo=' }],
    })
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
    const pdf = res.rawPayload
    expect(pdfInfo(pdf)).toMatchObject({ Title: 'Canvas card', Author: 'Ada' })
    expect(pdfAttachmentNames(pdf)).toEqual(['data.csv'])
    const listed = qpdfReport(pdf, ['--list-attachments'])
    expect(listed).toContain('data.csv')
    expect(requiresPassword(pdf)).toBe(false)

    const locked = await render({ protect: { user_password: 'open-sesame' } })
    expect(locked.statusCode, locked.body.slice(0, 300)).toBe(200)
    // qpdf --requires-password exits 0 when the file needs a password (2: not encrypted)
    expect(requiresPassword(locked.rawPayload)).toBe(true)
    expect(qpdfReport(locked.rawPayload, ['--show-encryption'])).toMatch(/AESv3|R = 6/)
  })

  it('is titled by its file name when given no title, as every untitled PDF', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/v1/renders',
      key: ws.testKey,
      payload: {
        delivery: 'binary',
        filename: 'membership-card.pdf',
        input: { type: 'template', template_id: templateId, version: 'draft' },
        output: { format: 'pdf' },
      },
    })
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200)
    expect(pdfInfo(res.rawPayload).Title).toBe('membership-card')
  })

  it('refuses the print options a canvas cannot honour, naming each field', async () => {
    const res = await render({
      format: 'Letter',
      margin: { top: '2cm' },
      header_html: '<p>x</p>',
      tagged: true,
    })
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400)
    const body = res.json() as { code: string; errors: { path: string; code: string; message: string }[] }
    expect(body.code).toBe('validation_error')
    expect(body.errors.map((e) => e.path)).toEqual([
      '/output/pdf/format',
      '/output/pdf/margin',
      '/output/pdf/header_html',
      '/output/pdf/tagged',
    ])
    expect(body.errors[0]?.message).toContain('image_canvas')
    // the flat route names the field where it sent it
    const flat = await t.inject({
      method: 'POST',
      url: '/v1/pdf/from-template',
      key: ws.testKey,
      payload: { template_id: templateId, version: 'draft', pdf: { landscape: true, pdfua: true } },
    })
    expect(flat.statusCode, flat.body.slice(0, 300)).toBe(400)
    expect(flat.json().errors.map((e: { path: string }) => e.path)).toEqual(['/pdf/landscape', '/pdf/pdfua'])
  })
})
