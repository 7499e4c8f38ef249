import { Writable } from 'node:stream'
import pino, { type Logger } from 'pino'

/** A logger whose JSON lines a test reads back (what went to the operator's log, and with which ids). */
export function memoryLogger(level = 'info'): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>)
      done()
    },
  })
  return { logger: pino({ level }, sink), lines }
}
