import { ProblemError } from '@docsvc/core/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserPool } from './browser-pool.ts'
import {
  html,
  outputContext,
  pdfText,
  startTestServer,
  type TestServer,
  testPool,
} from './chromium-test-support.ts'
import { HtmlOutput } from './html-output.ts'
import { PdfOutput } from './pdf-output.ts'

let pool: BrowserPool
let server: TestServer
let out: HtmlOutput
let inFlight = 0
let maxInFlight = 0

beforeAll(async () => {
  server = await startTestServer({
    '/set': html(
      `<body><script>localStorage.setItem('k', 'from-A'); sessionStorage.setItem('s', 'from-A'); document.cookie = 'c=from-A'; document.body.textContent = 'stored'</script></body>`,
    ),
    '/get': html(
      `<body><script>document.body.textContent = 'ls=' + localStorage.getItem('k') + ' ss=' + sessionStorage.getItem('s') + ' cookie=' + document.cookie + '.'</script></body>`,
    ),
    '/slow.png': (_req, res) => {
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      setTimeout(() => {
        inFlight--
        res.writeHead(204).end()
      }, 300)
    },
    '/hang': () => {},
  })
  pool = testPool(['127.0.0.1/32'], { concurrency: 2, restartAfterRenders: 12 })
  await pool.start()
  out = new HtmlOutput(pool)
})

afterAll(async () => {
  await pool.stop()
  await server.close()
})

const render = (markup: string, ctx = outputContext()) =>
  out.render({ kind: 'html', html: markup }, {}, ctx).then((f) => f.bytes.toString('utf8'))

// HTML documents have an opaque origin; a page that navigates itself reaches a real origin,
// whose storage then lives in the workspace's context unless the pool wipes it
const visit = (path: string) => `<script>location.href = ${JSON.stringify(server.url(path))}</script>`

describe('browser pool isolation', () => {
  it('never lets one render see state of another: not across workspaces, not within one', async () => {
    expect(await render(visit('/set'), outputContext({ workspaceId: 'ws_a' }))).toContain('stored')
    expect(await render(visit('/get'), outputContext({ workspaceId: 'ws_b' }))).toContain(
      'ls=null ss=null cookie=.',
    )
    // several renders, so every warm page of workspace A is reused at least once
    for (let i = 0; i < 4; i++)
      expect(await render(visit('/get'), outputContext({ workspaceId: 'ws_a' }))).toContain(
        'ls=null ss=null cookie=.',
      )
  })

  it('gives a reused page a new window: no globals and no window.name survive', async () => {
    const ctx = () => outputContext({ workspaceId: 'ws_globals' })
    await render(`<script>window.leak = 'g'; window.name = 'secret-name'</script>`, ctx())
    for (let i = 0; i < 3; i++) {
      const seen = await render(
        `<body><script>document.body.textContent = 'leak=' + window.leak + ' name=' + window.name + '.'</script></body>`,
        ctx(),
      )
      expect(seen).toContain('leak=undefined name=.')
    }
  })

  it('never lets a timer of an earlier render touch a later document on the same page', async () => {
    const ctx = () => outputContext({ workspaceId: 'ws_timer' })
    await render(
      `<script>setInterval(() => { document.body && document.body.setAttribute('data-leak', 'yes') }, 1)</script>`,
      ctx(),
    )
    for (const later of [
      '<body><p>later invoice</p></body>', // static: rendered with scripts off
      '<body><p>later invoice</p><script>document.title = "scripted"</script></body>',
      '<body><p>later invoice</p><script>document.title = "scripted"</script></body>',
    ]) {
      const out = await render(later, ctx())
      expect(out).toContain('later invoice')
      expect(out).not.toContain('data-leak')
    }
  })

  it('runs scripts when a document has them, and hides <noscript> like a browser', async () => {
    const ctx = () => outputContext({ workspaceId: 'ws_scripts' })
    expect(await render('<p>plain</p>', ctx())).toContain('plain')
    const scripted = await render(
      '<body><script>document.body.append("made by script")</script></body>',
      ctx(),
    )
    expect(scripted).toContain('made by script')
    const file = await new PdfOutput(pool).render(
      { kind: 'html', html: '<p>visible text</p><noscript>NOSCRIPT FALLBACK</noscript>' },
      {},
      ctx(),
    )
    expect(pdfText(file.bytes)).toContain('visible text')
    expect(pdfText(file.bytes)).not.toContain('NOSCRIPT FALLBACK')
  })
})

describe('browser pool limits', () => {
  it('runs at most `concurrency` renders at once', async () => {
    maxInFlight = 0
    const doc = `<img src="${server.url('/slow.png')}">`
    await Promise.all(
      Array.from({ length: 5 }, (_, i) => render(doc, outputContext({ workspaceId: `ws_c${i}` }))),
    )
    expect(maxInFlight).toBe(2)
  })

  it('ends a page that never settles in wait_timeout, and the next render works', async () => {
    // long enough that even a loaded machine has asked for the image before the deadline
    const ctx = outputContext({ deadline: Date.now() + 5_000 })
    const err = await render(`<p>x</p><img src="${server.url('/hang')}">`, ctx).catch((e) => e)
    expect(err).toBeInstanceOf(ProblemError)
    expect(err.code).toBe('wait_timeout')
    expect(err.message).toContain('/hang')
    expect(await render('<p>next one</p>')).toContain('next one')
  })

  it('stops a script that never ends at the deadline, and the next render works', async () => {
    const started = Date.now()
    const err = await render(
      '<script>for (;;) {}</script>',
      outputContext({ deadline: Date.now() + 2_500 }),
    ).catch((e) => e)
    expect(err.code).toBe('wait_timeout')
    expect(Date.now() - started).toBeLessThan(8_000)
    expect(await render('<p>after the loop</p>')).toContain('after the loop')
  })

  it('cancels a render when its signal aborts', async () => {
    const abort = new AbortController()
    setTimeout(() => abort.abort(), 300)
    const err = await render(
      `<img src="${server.url('/hang')}">`,
      outputContext({ signal: abort.signal }),
    ).catch((e) => e)
    expect(err.code).toBe('render_canceled')
    expect(await render('<p>still serving</p>')).toContain('still serving')
  })
})

describe('browser pool restarts', () => {
  it('survives a browser crash: the render in flight fails, the next one works on a new browser', async () => {
    const pid = await pool.browserPid()
    expect(pid).toBeGreaterThan(0)
    const inFlightRender = render(`<img src="${server.url('/hang')}">`).catch((e) => e)
    await new Promise((r) => setTimeout(r, 300))
    process.kill(pid!, 'SIGKILL')
    const err = await inFlightRender
    expect(err).toBeInstanceOf(ProblemError)
    expect(err.code).toBe('render_failed')
    expect(err.message).toMatch(/crashed/)
    expect(await render('<p>back again</p>')).toContain('back again')
    expect(await pool.browserPid()).not.toBe(pid)
    expect(pool.health().ok).toBe(true)
  })

  it('replaces the browser after restartAfterRenders renders', async () => {
    const pid = await pool.browserPid()
    let renders = 0
    while ((await pool.browserPid()) === pid && renders < 13) {
      await render('<p>counting</p>')
      renders++
    }
    expect(renders).toBeLessThanOrEqual(12)
    expect(await render('<p>fresh browser</p>')).toContain('fresh browser')
  })

  it('replaces the browser once it uses more memory than maxMemoryMb', async () => {
    const hungry = testPool([], { maxMemoryMb: 1 }, 0)
    try {
      const pdf = new PdfOutput(hungry)
      const pid = await hungry.browserPid()
      await pdf.render({ kind: 'html', html: '<p>big</p>' }, {}, outputContext())
      for (let i = 0; i < 50 && (await hungry.browserPid()) === pid; i++)
        await new Promise((r) => setTimeout(r, 100))
      expect(await hungry.browserPid()).not.toBe(pid)
      const file = await pdf.render({ kind: 'html', html: '<p>still fine</p>' }, {}, outputContext())
      expect(file.pages).toBe(1)
    } finally {
      await hungry.stop()
    }
  })
})
