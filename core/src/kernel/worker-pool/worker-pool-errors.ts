import type { ProblemCode } from '../problem-codes.ts'
import { ProblemError } from '../problem-error.ts'

// What a WorkerPool task can fail with besides the task's own errors. Each is a ProblemError, so
// it reaches the caller's answer as problem+json without being mapped again: the budget errors
// carry the code the pool was made with (a template's budget is template_fuel_exhausted, a PDF's
// invalid_pdf_source), a crash is the service's fault (internal_error).

export type WorkerBudget = 'time' | 'memory'

/** A task ran past its time budget; its thread was terminated and replaced. */
export class WorkerTimeBudgetExceeded extends ProblemError {
  readonly budget: WorkerBudget = 'time'
  readonly limitMs: number

  constructor(code: ProblemCode, subject: string, limitMs: number) {
    super(code, `${subject} exceeded its time budget of ${limitMs} ms.`)
    this.name = 'WorkerTimeBudgetExceeded'
    this.limitMs = limitMs
  }
}

/** A task's thread went past its memory budget (V8 heap or ArrayBuffers); it was replaced. */
export class WorkerMemoryBudgetExceeded extends ProblemError {
  readonly budget: WorkerBudget = 'memory'
  readonly limitMb: number

  constructor(code: ProblemCode, subject: string, limitMb: number) {
    super(code, `${subject} exceeded its memory budget of ${limitMb} MB.`)
    this.name = 'WorkerMemoryBudgetExceeded'
    this.limitMb = limitMb
  }
}

/** A task's thread died of something other than its budgets (or could not start). */
export class WorkerCrashed extends ProblemError {
  constructor(pool: string, reason: string) {
    super('internal_error', `A ${pool} worker thread failed: ${reason}.`)
    this.name = 'WorkerCrashed'
  }
}

/** The pool was closed (shutdown, reconfiguration) before the task finished. */
export class WorkerPoolClosed extends Error {
  constructor(pool: string) {
    super(`The ${pool} worker pool is closed.`)
    this.name = 'WorkerPoolClosed'
  }
}
