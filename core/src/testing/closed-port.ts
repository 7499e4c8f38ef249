import { createServer } from 'node:net'

/**
 * A loopback port nothing listens on (taken, then freed): a connection to it is refused at once,
 * the "server down" case of outbound tests, without waiting for a timeout.
 */
export async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}
