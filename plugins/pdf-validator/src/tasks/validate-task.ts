// Task module (validator thread): reads the PDF into the model and runs the profile's rules.
// It runs inside the SDK's WorkerPool, so a hostile file that loops or inflates past the
// budgets ends this thread, not the process.
import type { ConformanceProfile, Finding } from '@docsvc/core/sdk'
import { evaluate } from '../engine.ts'
import { buildModel, MODEL_TYPES } from '../model/build-model.ts'

export interface ValidateTaskInput {
  bytes: Uint8Array
  profile: ConformanceProfile
}

export interface ValidateTaskOutput {
  /** the file could not be read as a PDF at all: why */
  unreadable?: string
  findings: Finding[]
  rulesChecked: string[]
}

export default async function validateTask(input: ValidateTaskInput): Promise<ValidateTaskOutput> {
  let objects: Awaited<ReturnType<typeof buildModel>>
  try {
    objects = await buildModel(input.bytes)
  } catch (err) {
    return { unreadable: err instanceof Error ? err.message : String(err), findings: [], rulesChecked: [] }
  }
  return evaluate(input.profile, MODEL_TYPES, objects)
}
