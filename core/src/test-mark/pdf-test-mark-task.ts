// Task module (a thread of the test-mark pool): one PDF stamped TEST. A tool's source is the
// tenant's file, parsed by pdf-lib here and not on the event loop (issue 13 item 4).
import { exclusiveBuffer } from '../kernel/worker-pool/worker-pool.ts'
import { transferring } from '../kernel/worker-pool/worker-pool-protocol.ts'
import { stampTestMark } from './pdf-test-mark.ts'

export default async function pdfTestMarkTask(input: { bytes: Uint8Array }): Promise<Uint8Array> {
  const stamped = await stampTestMark(input.bytes)
  const bytes = new Uint8Array(stamped.buffer, stamped.byteOffset, stamped.byteLength)
  return transferring(bytes, exclusiveBuffer(bytes))
}
