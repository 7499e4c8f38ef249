import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { ProblemError } from '../kernel/problem-error.ts'
import { problemBody } from './problem-response.ts'
import { requestIdOf } from './request-id.ts'

export function clientErrorProblem(err: Error): ProblemError {
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'HPE_HEADER_OVERFLOW')
    return new ProblemError('headers_too_large', 'Request headers are too large.')
  return new ProblemError('validation_error', 'The request is not valid HTTP.')
}

/** A problem written straight to the socket, for errors Node's parser meets before any route. */
export function writeRawProblem(socket: Duplex, problem: ProblemError, docsUrl: string): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const id = requestIdOf({ headers: {} } as never)
  const body = JSON.stringify(problemBody(problem, id, docsUrl))
  const status = problemBody(problem, id, docsUrl).status
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: application/problem+json\r\nX-Request-Id: ${id}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
