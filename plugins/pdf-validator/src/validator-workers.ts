import { type ConformanceProfile, exclusiveBuffer, WorkerPool } from '@docsvc/core/sdk'
import { type Static, Type } from 'typebox'
import type { ValidateTaskOutput } from './tasks/validate-task.ts'

// Validation parses untrusted PDFs (a compressed-stream bomb, a cyclic page tree, a content
// stream of millions of operators), so it runs in threads of the SDK's WorkerPool with a memory
// and a time budget (docs/decisions/0025-killable-worker-pool.md): past either, the thread is
// terminated and the validation fails with a problem, the process lives on.

export const ValidatorConfigSchema = Type.Object({
  workers: Type.Integer({ minimum: 1, maximum: 32, default: 2, description: 'threads validating PDFs' }),
  workerHeapMb: Type.Integer({
    minimum: 64,
    default: 512,
    description: 'V8 heap of each validator thread, in MB',
  }),
  workerBuffersMb: Type.Integer({
    minimum: 32,
    default: 512,
    description: 'memory outside the heap a validation may hold, in MB',
  }),
  taskSeconds: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 60,
    description: 'time budget of one validation',
  }),
})

export type ValidatorConfig = Static<typeof ValidatorConfigSchema>

let settings: ValidatorConfig = { workers: 2, workerHeapMb: 512, workerBuffersMb: 512, taskSeconds: 60 }
let pool: WorkerPool | undefined

export function configureValidatorWorkers(config: Partial<ValidatorConfig>): void {
  settings = { ...settings, ...config }
  void stopValidatorWorkers()
}

export async function stopValidatorWorkers(): Promise<void> {
  const old = pool
  pool = undefined
  await old?.close()
}

export function runValidation(
  pdf: Buffer,
  profile: ConformanceProfile,
  signal: AbortSignal,
): Promise<ValidateTaskOutput> {
  pool ??= new WorkerPool({
    name: 'pdf-validator',
    size: settings.workers,
    heapMb: settings.workerHeapMb,
    buffersMb: settings.workerBuffersMb,
    budgetCode: 'invalid_pdf_source',
  })
  // a copy moves into the thread: the caller keeps its own bytes
  const bytes = new Uint8Array(pdf)
  return pool.run<ValidateTaskOutput>({
    module: new URL('./tasks/validate-task.ts', import.meta.url),
    input: { bytes, profile },
    transfer: exclusiveBuffer(bytes),
    timeMs: settings.taskSeconds * 1000,
    signal,
    subject: 'Validating the PDF',
  })
}
