// Test helpers only (no product code imports this): a local HTTP server, an output context that
// records warnings, a pool on the real outbound guard, and poppler to read PDFs like a user.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { OutputContext, PluginLogger, RenderWarning } from '@docsvc/core/sdk'
import { testOutboundGuard } from '@docsvc/core/testing'
import { afterAll, beforeAll } from 'vitest'
import { BrowserPool } from './browser-pool.ts'
import { type ChromiumConfig, DEFAULT_CHROMIUM_CONFIG } from './chromium-config.ts'

export const quietLog: PluginLogger = { info() {}, warn() {}, error() {}, debug() {} }

export function testPool(
  networkAllow: string[],
  config: Partial<ChromiumConfig> = {},
  memoryCheckMs?: number,
  log: PluginLogger = quietLog,
): BrowserPool {
  return new BrowserPool({
    chromiumPath: process.env.DOCSVC_CHROMIUM_PATH ?? '/usr/bin/chromium',
    config: { ...DEFAULT_CHROMIUM_CONFIG, ...config },
    guard: testOutboundGuard(networkAllow),
    log,
    ...(memoryCheckMs !== undefined ? { memoryCheckMs } : {}),
  })
}

export interface TestContext extends OutputContext {
  warnings: RenderWarning[]
}

export function outputContext(overrides: Partial<OutputContext> = {}): TestContext {
  const warnings: RenderWarning[] = []
  return {
    renderId: 'rnd_test',
    workspaceId: 'ws_a',
    test: false,
    signal: new AbortController().signal,
    maxPages: 100,
    deadline: Date.now() + 20_000,
    warn: (code, message) => warnings.push({ code, message }),
    log: () => {},
    ...overrides,
    warnings,
  }
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void

export interface TestServer {
  origin: string
  url(p: string): string
  close(): Promise<void>
}

/** An HTTP server on 127.0.0.1 with a handler per path (query strings ignored). */
export async function startTestServer(routes: Record<string, Handler>): Promise<TestServer> {
  const server = createServer((req, res) => {
    const handler = routes[new URL(req.url ?? '/', 'http://x').pathname]
    if (handler) return handler(req, res)
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('not found')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const origin = `http://127.0.0.1:${port}`
  return {
    origin,
    url: (p) => `${origin}${p}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export function html(body: string): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(body)
  }
}

function withPdfFile<T>(bytes: Buffer, use: (file: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'docsvc-pdf-'))
  try {
    const file = path.join(dir, 'out.pdf')
    writeFileSync(file, bytes)
    return use(file)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Text as pdftotext extracts it, of one page or the whole document. */
export function pdfText(bytes: Buffer, page?: number): string {
  const range = page ? ['-f', String(page), '-l', String(page)] : []
  return withPdfFile(bytes, (file) => execFileSync('pdftotext', [...range, file, '-'], { encoding: 'utf8' }))
}

/** Page count and the first page's size in points, from pdfinfo. */
export function pdfInfo(bytes: Buffer): { pages: number; width: number; height: number; tagged: boolean } {
  const out = withPdfFile(bytes, (file) => execFileSync('pdfinfo', [file], { encoding: 'utf8' }))
  const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(out)
  return {
    pages: Number(/Pages:\s+(\d+)/.exec(out)?.[1]),
    width: Number(size?.[1]),
    height: Number(size?.[2]),
    tagged: /Tagged:\s+yes/.test(out),
  }
}

/** A started pool that may reach a local test server, for one test file (vitest hooks). */
export function poolWithServer(routes: Record<string, Handler>): {
  pool(): BrowserPool
  server(): TestServer
} {
  let pool: BrowserPool | undefined
  let server: TestServer | undefined
  beforeAll(async () => {
    server = await startTestServer(routes)
    pool = testPool(['127.0.0.1/32'])
    await pool.start()
  })
  afterAll(async () => {
    await pool?.stop()
    await server?.close()
  })
  return { pool: () => pool!, server: () => server! }
}
