import type { IncomingMessage } from 'node:http'
import { newId } from '../kernel/ids.ts'

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/

export function newRequestId(): string {
  return newId('request')
}

/** A client's own X-Request-Id is kept when it is short and plain; otherwise we make one. */
export function requestIdOf(req: Pick<IncomingMessage, 'headers'>): string {
  const sent = req.headers['x-request-id']
  if (typeof sent === 'string' && SANE_REQUEST_ID.test(sent)) return sent
  return newRequestId()
}
