import type { AddressInfo } from 'node:net'
import type { TestKernel } from '../../core/src/testing/index.ts'
import type { OpenApiDocument } from './openapi-document.ts'
import { fetchWire } from './wire-client.ts'

/** Puts the kernel on a socket and reads its OpenAPI document from there, as a client would. */
export async function servedDocument(t: TestKernel): Promise<{ base: string; doc: OpenApiDocument }> {
  await t.kernel.app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(t.kernel.app.server.address() as AddressInfo).port}`
  const res = await fetchWire(`${base}/v1/openapi.json`)
  if (res.status !== 200)
    throw new Error(`GET /v1/openapi.json answered ${res.status}: ${res.body.slice(0, 300)}`)
  return { base, doc: JSON.parse(res.body) as OpenApiDocument }
}
