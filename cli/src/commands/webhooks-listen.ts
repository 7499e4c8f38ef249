import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DELIVERED_EVENT_TYPES } from '@docsvc/core'
import { Flags } from '@oclif/core'
import { BaseCommand } from '../base-command.ts'
import { signatureProblem } from './webhooks-signature-check.ts'

// headers that belong to one hop, not to the delivery
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'])

interface Forwarded {
  event_id: string
  type: string
  verified: boolean
  status: number | null
}

/**
 * Local forwarding of deliveries (SPEC 9.4). The service delivers to a receiver this command
 * opens, exactly as to any endpoint; the command checks the signature, forwards the raw body and
 * the delivery headers to the local app, and answers the service with the app's status.
 */
export default class WebhooksListen extends BaseCommand {
  static override description =
    'Register a temporary test-mode webhook endpoint and forward its deliveries to a local URL; the endpoint is removed on exit'
  static override examples = ['<%= config.bin %> webhooks listen --forward-to http://localhost:4000/webhooks']
  static override flags = {
    'forward-to': Flags.string({ required: true, description: 'local URL that receives each delivery' }),
    'api-url': Flags.string({
      description: 'the service, e.g. http://localhost:3000',
      env: 'DOCSVC_API_URL',
      default: 'http://localhost:3000',
    }),
    'api-key': Flags.string({
      description: 'a test key (doc_test_...)',
      env: 'DOCSVC_API_KEY',
      required: true,
    }),
    events: Flags.string({ description: 'comma-separated event types; default all' }),
    host: Flags.string({ description: 'address the receiver listens on', default: '127.0.0.1' }),
    port: Flags.integer({ description: 'port the receiver listens on; default any free one', default: 0 }),
    'public-url': Flags.string({
      description: 'URL the service calls, when it cannot reach this machine directly (a tunnel)',
    }),
  }

  async run() {
    const { flags } = await this.parse(WebhooksListen)
    if (!flags['api-key'].startsWith('doc_test_'))
      this.error('webhooks listen needs a test key (doc_test_...): it registers a test-mode endpoint', {
        exit: 2,
      })
    const api = new ServiceApi(flags['api-url'], flags['api-key'])
    const forwarded: Forwarded[] = []
    let secret = ''
    let done: () => void = () => {}
    const finished = new Promise<void>((resolve) => {
      done = resolve
    })

    const server = createServer((req, res) => {
      void readBody(req).then(async (raw) => {
        const problem = signatureProblem(secret, req.headers, raw)
        const status = await forward(flags['forward-to'], req, raw).catch((err: Error) => {
          this.logToStderr(`  forward failed: ${err.message}`)
          return null
        })
        const body = safeJson(raw)
        forwarded.push({
          event_id: String(body.id ?? ''),
          type: String(body.type ?? ''),
          verified: !problem,
          status,
        })
        this.log(
          `${new Date().toISOString()}  ${String(body.type)}  ${String(body.id)}  signature ${problem ? `INVALID (${problem})` : 'ok'}  -> ${status ?? 'no answer'}`,
        )
        // the service records the local app's answer as the delivery's response
        res.writeHead(status ?? 502).end()
      })
    })
    const port = await listen(server, flags.host, flags.port)
    const url =
      flags['public-url'] ?? `http://${flags.host.includes(':') ? `[${flags.host}]` : flags.host}:${port}/`
    const events = flags.events ? flags.events.split(',').map((e) => e.trim()) : DELIVERED_EVENT_TYPES
    const endpoint = await api.createEndpoint(url, events).catch(async (err: Error) => {
      server.close()
      throw err
    })
    secret = endpoint.secret
    this.log(`Ready: endpoint ${endpoint.id} receives at ${url}, forwarding to ${flags['forward-to']}`)
    this.log(`Signing secret (for your app while it listens): ${secret}`)

    const stop = () => done()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    await finished
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    await api.deleteEndpoint(endpoint.id).catch((err: Error) => {
      this.logToStderr(`could not remove endpoint ${endpoint.id}: ${err.message}`)
    })
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    this.log(`Removed endpoint ${endpoint.id}`)
    return { endpoint_id: endpoint.id, forwarded }
  }
}

class ServiceApi {
  readonly #base: string
  readonly #key: string

  constructor(base: string, key: string) {
    this.#base = base.replace(/\/+$/, '')
    this.#key = key
  }

  async createEndpoint(url: string, events: string[]): Promise<{ id: string; secret: string }> {
    const res = await fetch(`${this.#base}/v1/webhook-endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.#key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, events, description: 'docsvc webhooks listen (temporary)' }),
    })
    const body = (await res.json()) as { id: string; secret: string; detail?: string; errors?: unknown }
    if (res.status !== 201)
      throw new Error(
        `the service refused the endpoint (${res.status}): ${body.detail ?? ''} ${JSON.stringify(body.errors ?? [])}`,
      )
    return body
  }

  async deleteEndpoint(id: string): Promise<void> {
    const res = await fetch(`${this.#base}/v1/webhook-endpoints/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${this.#key}` },
    })
    await res.arrayBuffer()
    if (res.status !== 204 && res.status !== 404) throw new Error(`DELETE answered ${res.status}`)
  }
}

async function forward(target: string, req: IncomingMessage, raw: Buffer): Promise<number> {
  const headers = Object.fromEntries(
    Object.entries(req.headers).filter(
      (e): e is [string, string] => typeof e[1] === 'string' && !HOP_HEADERS.has(e[0]),
    ),
  )
  const res = await fetch(target, {
    method: 'POST',
    headers,
    body: new Uint8Array(raw),
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  })
  await res.arrayBuffer()
  return res.status
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port))
  })
}

function safeJson(raw: Buffer): Record<string, unknown> {
  try {
    return JSON.parse(raw.toString('utf8')) as Record<string, unknown>
  } catch {
    return {}
  }
}
