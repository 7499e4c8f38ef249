import { availableParallelism } from 'node:os'
import {
  type RenderWarning,
  WorkerMemoryBudgetExceeded,
  WorkerPool,
  WorkerTimeBudgetExceeded,
} from '@docsvc/core/sdk'
import { DEFAULT_LIQUID_LIMITS, type LiquidLimits } from './liquid-limits.ts'
import type { LiquidJob, LiquidReply } from './liquid-worker-protocol.ts'
import { templateLabel, templateProblemOf } from './template-problem.ts'

/** The Liquid threads: how many, and the memory budget of each (fixed when a thread starts). */
export interface LiquidWorkerPoolOptions {
  /** worker threads kept warm; each evaluates one template at a time */
  size: number
  /** heap of each worker (V8 old generation), in MB: the hard memory budget of a template */
  heapMb: number
}

const LIQUID_TASK = new URL('./liquid-worker.ts', import.meta.url)
// liquidjs' cooperative time check gets the first chance to end a slow render cleanly, so the
// thread is terminated a moment after the budget rather than exactly at it
const KILL_GRACE_MS = 25

export interface RenderLiquidOptions {
  /** names the template in error details when a request has several (e.g. `head`) */
  label?: string
  /** templates `include` and `render` may name; nothing else is reachable (no file system) */
  partials?: Record<string, string>
  /** an undefined variable is a template_runtime_error instead of an empty string */
  strictVariables?: boolean
  /** the locale of money, number and date filters that name none (e.g. the render's); en-US if unset */
  locale?: string
  limits?: Partial<LiquidLimits>
}

/** A rendered template and the warnings its filters raised (e.g. `locale_unsupported`). */
export interface LiquidRendering {
  output: string
  warnings: RenderWarning[]
}

export const DEFAULT_LIQUID_WORKERS: LiquidWorkerPoolOptions = {
  size: Math.min(4, Math.max(2, availableParallelism())),
  heapMb: 128,
}

let poolOptions = DEFAULT_LIQUID_WORKERS
let pool: WorkerPool | undefined

/**
 * Renders a Liquid template with `data`. Evaluation happens in a worker thread that is killed at
 * the time or heap budget: no file system, no JavaScript, only the data's own properties (which
 * must be structured-cloneable, as JSON is). Errors are ProblemErrors with line and column.
 */
export async function renderLiquid(
  source: string,
  data: Record<string, unknown>,
  options: RenderLiquidOptions = {},
): Promise<string> {
  return (await renderLiquidWithWarnings(source, data, options)).output
}

/** renderLiquid, with the render warnings the template's filters raised. */
export async function renderLiquidWithWarnings(
  source: string,
  data: Record<string, unknown>,
  options: RenderLiquidOptions = {},
): Promise<LiquidRendering> {
  const limits = { ...DEFAULT_LIQUID_LIMITS, ...options.limits }
  const job: LiquidJob = {
    source,
    data,
    partials: options.partials ?? {},
    strictVariables: options.strictVariables ?? false,
    locale: options.locale,
    parseChars: limits.parseChars,
    renderMs: limits.renderMs,
    memory: limits.memory,
    outputChars: limits.outputChars,
  }
  const reply = await workerPool()
    .run<LiquidReply>({
      module: LIQUID_TASK,
      input: job,
      timeMs: limits.renderMs,
      graceMs: KILL_GRACE_MS,
      subject: 'Template',
    })
    .catch((err: unknown) => {
      // a budget the pool enforced: named like the template's other errors
      if (err instanceof WorkerTimeBudgetExceeded || err instanceof WorkerMemoryBudgetExceeded) {
        const message = err.detail ?? err.message
        throw templateProblemOf(
          { code: 'template_fuel_exhausted', message },
          templateLabel(options.label, undefined),
        )
      }
      throw err
    })
  if ('error' in reply) throw templateProblemOf(reply.error, templateLabel(options.label, reply.partial))
  return { output: reply.output, warnings: reply.warnings }
}

/** Sets the worker threads' count and heap budget (at start-up: templates in progress fail). */
export function configureLiquidWorkers(options: Partial<LiquidWorkerPoolOptions>): void {
  poolOptions = { ...poolOptions, ...options }
  const old = pool
  pool = undefined
  void old?.close()
}

/** Starts the worker threads ahead of the first template (e.g. when a render worker starts). */
export function warmLiquidWorkers(): void {
  workerPool().warm()
}

/** Terminates the worker threads (shutdown); the next template starts fresh ones. */
export async function stopLiquidWorkers(): Promise<void> {
  const old = pool
  pool = undefined
  await old?.close()
}

function workerPool(): WorkerPool {
  pool ??= new WorkerPool({ name: 'liquid', ...poolOptions, budgetCode: 'template_fuel_exhausted' })
  return pool
}
