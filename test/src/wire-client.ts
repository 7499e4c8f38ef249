import net from 'node:net'

/** An HTTP response as the client saw it on the wire. */
export interface WireResponse {
  status: number
  /** lower-case names; repeated headers joined with ', ' */
  headers: Record<string, string>
  body: string
}

export interface RawOptions {
  timeoutMs?: number
  /** half-close after writing, so a request the parser still waits on meets end of input */
  halfClose?: boolean
  /** the request was HEAD: the response has no body whatever Content-Length says */
  head?: boolean
}

type Parsed = { response: WireResponse; complete: boolean }

function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at)
    if (lineEnd < 0) return undefined
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16)
    if (Number.isNaN(size)) throw new Error('bad chunk size in response')
    if (size === 0) return Buffer.concat(parts)
    const start = lineEnd + 2
    if (data.length < start + size + 2) return undefined
    parts.push(data.subarray(start, start + size))
    at = start + size + 2
  }
}

/** Parses the first final (non-1xx) response in `data`, if its head has arrived. */
function parseResponse(data: Buffer, head: boolean, closed: boolean): Parsed | undefined {
  let at = 0
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', at)
    if (headEnd < 0) return undefined
    const lines = data.subarray(at, headEnd).toString('latin1').split('\r\n')
    const statusMatch = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')
    if (!statusMatch) throw new Error(`not an HTTP response: ${JSON.stringify(lines[0])}`)
    const status = Number(statusMatch[1])
    if (status >= 100 && status < 200) {
      at = headEnd + 4
      continue
    }
    const headers: Record<string, string> = {}
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':')
      const name = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
    }
    const rest = data.subarray(headEnd + 4)
    let body: Buffer | undefined
    if (head || status === 204 || status === 304) body = Buffer.alloc(0)
    else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(rest)
    else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length'])
      body = rest.length >= length ? rest.subarray(0, length) : undefined
    } else if (closed) body = rest
    const response = { status, headers, body: (body ?? rest).toString('utf8') }
    return { response, complete: body !== undefined }
  }
}

/**
 * Writes `request` to a fresh TCP connection and reads one response. Rejects when none arrives
 * in time or the connection closes without a complete one: a hang or a dropped connection is
 * a failure, not a pass.
 */
export function sendRaw(
  port: number,
  request: Buffer | string,
  options: RawOptions = {},
): Promise<WireResponse> {
  const { timeoutMs = 5000, halfClose = false, head = false } = options
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' })
    const chunks: Buffer[] = []
    let settled = false
    const finish = (err: Error | undefined, response?: WireResponse) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      if (response) resolve(response)
      else reject(err)
    }
    const attempt = (closed: boolean, cause?: Error) => {
      let parsed: Parsed | undefined
      try {
        parsed = parseResponse(Buffer.concat(chunks), head, closed)
      } catch (err) {
        finish(err as Error)
        return
      }
      if (parsed?.complete || (closed && parsed)) finish(undefined, parsed.response)
      else if (closed) {
        const got = Buffer.concat(chunks).toString('latin1').slice(0, 200)
        finish(
          new Error(
            `connection closed without a response (${cause?.message ?? 'EOF'}); got ${JSON.stringify(got)}`,
          ),
        )
      }
    }
    const timer = setTimeout(() => {
      const got = Buffer.concat(chunks).toString('latin1').slice(0, 200)
      finish(new Error(`no response within ${timeoutMs} ms; got ${JSON.stringify(got)}`))
    }, timeoutMs)
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      attempt(false)
    })
    socket.on('end', () => attempt(true))
    socket.on('close', () => attempt(true))
    // the server may stop reading an oversized request early: the answer may still be there
    socket.on('error', (err) => attempt(true, err))
    socket.write(request, () => {
      if (halfClose) socket.end()
    })
  })
}

export interface RequestSpec {
  method?: string
  /** the request target as sent; a Buffer carries bytes that are not ASCII */
  target: string | Buffer
  /** name/value pairs in order; Buffers go out byte for byte; an empty name sends the value as the whole line */
  headers?: [string, string | Buffer][]
  body?: string | Buffer
  /** leave out the Host header (it is added by default) */
  noHost?: boolean
}

/** A request built byte by byte, so nothing a client library would refuse gets lost. */
export function buildRequest({ method = 'GET', target, headers = [], body, noHost }: RequestSpec): Buffer {
  const parts: Buffer[] = [Buffer.from(`${method} `), Buffer.from(target), Buffer.from(' HTTP/1.1\r\n')]
  const all: [string, string | Buffer][] = [
    ...(noHost ? [] : [['Host', '127.0.0.1'] as [string, string]]),
    ...headers,
    ['Connection', 'close'],
  ]
  if (body !== undefined && !headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name)))
    all.push(['Content-Length', String(Buffer.byteLength(body))])
  for (const [name, value] of all) {
    if (name !== '') parts.push(Buffer.from(`${name}: `))
    parts.push(Buffer.from(value), Buffer.from('\r\n'))
  }
  parts.push(Buffer.from('\r\n'))
  if (body !== undefined) parts.push(Buffer.from(body))
  return Buffer.concat(parts)
}

export function sendRequest(
  port: number,
  spec: RequestSpec,
  options: RawOptions = {},
): Promise<WireResponse> {
  return sendRaw(port, buildRequest(spec), { head: spec.method === 'HEAD', ...options })
}

/** fetch with a deadline, as a WireResponse. */
export async function fetchWire(
  url: string,
  init: RequestInit = {},
  timeoutMs = 10_000,
): Promise<WireResponse> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
  const headers: Record<string, string> = {}
  res.headers.forEach((value, name) => {
    headers[name] = value
  })
  return { status: res.status, headers, body: await res.text() }
}

/** Runs tasks `width` at a time; results keep the order of `tasks`. */
export async function inParallel<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length)
  let next = 0
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++
      results[index] = await (tasks[index] as () => Promise<T>)()
    }
  }
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker))
  return results
}
