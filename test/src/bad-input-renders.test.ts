import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pdfText } from '@docsvc/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestKernel, type TestKernel, type TestWorkspace } from '../../core/src/testing/index.ts'

// The "Bad input" paragraph of the render pipeline issue, through the API with real Chromium:
// each case ends in its documented code or warning, and the worker keeps serving. One kernel (one
// browser); an 8 s render limit bounds the pages that never settle.

const MB = 1024 * 1024
let t: TestKernel
let ws: TestWorkspace
let other: TestWorkspace
let site: Server
let siteUrl: string

beforeAll(async () => {
  site = createServer((req, res) => {
    const port = (site.address() as AddressInfo).port
    if (req.url === '/hang') return // never answers
    if (req.url === '/slow.svg') {
      setTimeout(() => {
        res
          .writeHead(200, { 'content-type': 'image/svg+xml' })
          .end('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')
      }, 1500)
      return
    }
    const targets: Record<string, string> = {
      '/to-loopback': `http://127.0.0.2:${port}/secret`,
      '/to-metadata': 'http://169.254.169.254/latest/meta-data/',
    }
    const target = targets[req.url ?? '']
    if (target) res.writeHead(302, { location: target }).end()
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>internal secret</p>')
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  t = await startTestKernel({
    roles: ['api', 'worker'],
    env: { DOCSVC_NETWORK_ALLOW: '127.0.0.1/32', DOCSVC_RENDER_TIMEOUT_SECONDS: '8' },
  })
  ws = await t.createWorkspace({ plan: 'scale' })
  other = await t.createWorkspace({ plan: 'scale' })
}, 60_000)

afterAll(async () => {
  await t?.close()
  // the /hang requests never end by themselves
  site.closeAllConnections()
  await new Promise<void>((resolve) => site.close(() => resolve()))
})

const post = (url: string, payload: object, key = ws.liveKey) =>
  t.inject({ method: 'POST', url, key, payload })

/** The worker still serves: a plain render right after succeeds. */
async function stillServing(label: string) {
  const res = await post('/v1/pdf/from-html', { html: `<p>after ${label}</p>`, delivery: 'binary' })
  expect(res.statusCode, label).toBe(200)
  expect(pdfText(res.rawPayload)).toContain(`after ${label}`)
}

describe('bad input to the render pipeline', () => {
  it('renders broken HTML the way a browser repairs it', async () => {
    const html = '<html><body><h1>Broken <b>markup<table><tr><td>cell one</div></p></i><td>cell two<p <<>'
    const res = await post('/v1/pdf/from-html', { html, delivery: 'binary' })
    expect(res.statusCode).toBe(200)
    const text = pdfText(res.rawPayload)
    expect(text).toContain('Broken markup')
    expect(text).toContain('cell two')
  })

  it('ends a page that never settles in wait_timeout; a render beside it is not affected', async () => {
    const hanging = post('/v1/pdf/from-html', { html: `<p>waiting</p><img src="${siteUrl}/hang">` })
    const beside = post('/v1/pdf/from-html', { html: '<p>beside</p>', delivery: 'binary' }, other.liveKey)
    const [bad, good] = await Promise.all([hanging, beside])
    expect(good.statusCode).toBe(200)
    expect(pdfText(good.rawPayload)).toContain('beside')
    expect(bad.statusCode).toBe(422)
    expect(bad.json()).toMatchObject({ code: 'wait_timeout', status: 422 })
    expect(bad.json().render_id).toMatch(/^rnd_/)
    await stillServing('a page that never settled')
  })

  it('refuses a 50 MB HTML body with 413 payload_too_large', async () => {
    const res = await post('/v1/pdf/from-html', { html: `<p>${'x'.repeat(50 * MB)}</p>` })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ code: 'payload_too_large', status: 413 })
    await stillServing('a 50 MB body')
  })

  it('renders a 2 MB HTML body, which waits in the file store, not in the render row', async () => {
    const html = `<h1>Large body</h1><!-- ${'z'.repeat(2 * MB)} --><p>end of body</p>`
    const res = await post('/v1/pdf/from-html', { html, delivery: 'binary' })
    expect(res.statusCode).toBe(200)
    expect(pdfText(res.rawPayload)).toContain('end of body')
  })

  it('refuses URLs that redirect to loopback or the metadata address, and file: input', async () => {
    for (const url of [`${siteUrl}/to-loopback`, `${siteUrl}/to-metadata`, 'file:///etc/passwd']) {
      const res = await post('/v1/pdf/from-url', { url })
      expect(res.statusCode, url).toBe(422)
      expect(res.json().code, url).toBe('url_not_allowed')
    }
    await stillServing('refused URLs')
  })

  it('leaves out file:///etc/passwd as an <img> with an asset_failed warning', async () => {
    const res = await post('/v1/pdf/from-html', {
      html: '<p>visible text</p><img src="file:///etc/passwd"><iframe src="file:///etc/passwd"></iframe>',
      delivery: 'base64',
    })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.warnings).toContainEqual(
      expect.objectContaining({ code: 'asset_failed', message: expect.stringContaining('file:') }),
    )
    const text = pdfText(Buffer.from(body.files[0].data, 'base64'))
    expect(text).toContain('visible text')
    expect(text).not.toContain('root:')
  })

  it('prints a header template whose script throws: the script is ignored, page numbers still print', async () => {
    const res = await post('/v1/pdf/from-html', {
      html: '<p>body text</p>',
      pdf: {
        margin: { top: '80px', bottom: '80px' },
        header_html:
          '<script>throw new Error("header boom")</script><div style="font-size:10px">Header page <span class="pageNumber"></span></div>',
        footer_html: '<div style="font-size:10px">Footer <b>unclosed <i>markup',
      },
      delivery: 'binary',
    })
    expect(res.statusCode).toBe(200)
    const text = pdfText(res.rawPayload)
    expect(text).toContain('body text')
    expect(text).toContain('Header page 1')
    expect(text).toContain('Footer unclosed markup')
    expect(text).not.toContain('header boom')
  })

  it('lets a render canceled while processing finish (SPEC 3), and keeps serving', async () => {
    const res = await post('/v1/pdf/from-html', {
      mode: 'async',
      html: `<p>slow asset</p><img src="${siteUrl}/slow.svg">`,
    })
    expect(res.statusCode).toBe(202)
    const id = res.json().id
    let status = 'queued'
    for (let i = 0; i < 100 && status !== 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 20))
      status = (await t.inject({ method: 'GET', url: `/v1/renders/${id}`, key: ws.liveKey })).json().status
    }
    expect(status).toBe('processing')
    const cancel = await t.inject({ method: 'POST', url: `/v1/renders/${id}/cancel`, key: ws.liveKey })
    expect(cancel.statusCode).toBe(200)
    expect(cancel.json().status).toBe('processing')
    let done = cancel.json()
    for (let i = 0; i < 100 && done.status === 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 50))
      done = (await t.inject({ method: 'GET', url: `/v1/renders/${id}`, key: ws.liveKey })).json()
    }
    expect(done.status).toBe('succeeded')
    const again = await t.inject({ method: 'POST', url: `/v1/renders/${id}/cancel`, key: ws.liveKey })
    expect(again.statusCode).toBe(409)
    expect(again.json().code).toBe('conflict')
    await stillServing('a canceled render')
  })
})
