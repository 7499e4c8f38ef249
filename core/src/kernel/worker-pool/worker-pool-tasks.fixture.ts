// Task module for worker-pool.test.ts: each input kind misbehaves in one way.
import { ProblemError } from '../problem-error.ts'
import { transferring } from './worker-pool-protocol.ts'

export type FixtureInput =
  | { kind: 'echo'; value: unknown }
  | { kind: 'spin' }
  | { kind: 'heap' }
  | { kind: 'buffers' }
  | { kind: 'problem' }
  | { kind: 'exit' }
  | { kind: 'reverse'; bytes: Uint8Array }

export default function run(input: FixtureInput): unknown {
  switch (input.kind) {
    case 'echo':
      return input.value
    case 'spin':
      for (;;);
    case 'heap': {
      const kept: number[][] = []
      for (;;) kept.push(new Array(1e5).fill(1))
    }
    case 'buffers': {
      // outside the V8 heap: only the pool's watch sees it
      const kept: Uint8Array[] = []
      for (;;) kept.push(new Uint8Array(16 * 1024 * 1024).fill(1))
    }
    case 'problem':
      throw new ProblemError('invalid_pdf_source', 'Not a PDF.', { source: 1 })
    case 'exit':
      return process.exit(3)
    case 'reverse': {
      const out = Uint8Array.from(input.bytes).reverse()
      return transferring({ bytes: out, received: input.bytes.byteLength }, [out.buffer])
    }
  }
}
