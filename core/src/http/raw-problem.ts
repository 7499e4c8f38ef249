import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { ProblemError } from '../kernel/problem-error.ts'
import { problemBody, sendProblem, toProblem } from './problem-response.ts'
import { newRequestId } from './request-id.ts'

// Problems met before any route runs: Node's parser, CONNECT, odd Expect headers, bad URLs.

/** How long an answered socket may stay half-open for a client that never closes it. */
const LINGER_MS = 1000
const answered = new WeakSet<Duplex>()

export function clientErrorProblem(err: Error): ProblemError {
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'HPE_HEADER_OVERFLOW')
    return new ProblemError('headers_too_large', 'Request headers are too large.')
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new ProblemError('request_timeout', 'The request did not arrive in time.')
  return new ProblemError('validation_error', 'The request is not valid HTTP.')
}

/** A problem written straight to the socket, for errors Node's parser meets before any route. */
export function writeRawProblem(socket: Duplex, problem: ProblemError, docsUrl: string): void {
  // the parser fails again on every later chunk; the first answer stands and the linger timer closes
  if (answered.has(socket)) return
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage
  // a response already on the wire must not be corrupted by a second status line
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy()
    return
  }
  answered.add(socket)
  const id = newRequestId()
  const problemJson = problemBody(problem, id, docsUrl)
  const body = JSON.stringify(problemJson)
  socket.end(
    `HTTP/1.1 ${problemJson.status} ${STATUS_CODES[problemJson.status]}\r\n` +
      `Content-Type: application/problem+json\r\nX-Request-Id: ${id}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
  // end() only half-closes: a client that never closes would hold the socket for good
  const timer = setTimeout(() => socket.destroy(), LINGER_MS)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
}

/**
 * Node answers some requests itself, without a body or without any answer: CONNECT (the
 * connection is dropped) and an Expect other than 100-continue (a bare 417). Both get our
 * treatment instead. A client that half-closes after its request still gets the answer.
 */
export function answerTransportEdges(server: Server, docsUrl: string): void {
  // Node's (long-standing, undocumented) switch: by default the end of the client's input ends
  // the socket at once, and a response still being worked on is lost
  ;(server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    writeRawProblem(socket, new ProblemError('method_not_allowed', 'CONNECT is not supported.'), docsUrl)
  })
  // RFC 9110 lets a server ignore an expectation it does not know; the route answers as usual
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    server.emit('request', req, res)
  })
}

/** HTTP/1.1 needs a Host header (RFC 9112 3.2); Node's own check would answer 400 with no body. */
export function requireHostHeader(request: FastifyRequest): void {
  const { httpVersionMajor, httpVersionMinor } = request.raw
  if (httpVersionMajor === 1 && httpVersionMinor >= 1 && request.headers.host === undefined) {
    throw new ProblemError('validation_error', 'HTTP/1.1 requests need a Host header.')
  }
}

/** Fastify's router errors (malformed percent-encoding, over-long path parameters) as problems. */
export function frameworkErrorHandler(docsUrl: string) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // onRequest hooks do not run for these, so the request id header is set here
    reply.header('X-Request-Id', request.id)
    return sendProblem(request, reply, toProblem(error), docsUrl)
  }
}
