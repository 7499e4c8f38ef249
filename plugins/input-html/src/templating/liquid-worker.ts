// Task module of the Liquid WorkerPool: evaluates one Liquid job in a pool thread, which the pool
// terminates when the job runs past its time budget or its memory budget.
import { createHash } from 'node:crypto'
import { type Liquid, LiquidError, type Template } from 'liquidjs'
import { BoundedLru } from './bounded-lru.ts'
import { createLiquidEngine } from './liquid-engine.ts'
import type { LiquidJob, LiquidReply } from './liquid-worker-protocol.ts'
import { withinRender } from './render-scope.ts'
import { describeTemplateError } from './template-error.ts'

interface Parsed {
  engine: Liquid
  templates: Template[]
}

// one engine per set of partials (its partial cache belongs to them), and parsed templates
// weighed by source length so that the cache stays a small part of the heap budget
const engines = new BoundedLru<string, Liquid>(16)
const parsed = new BoundedLru<string, Parsed>(256, 4_000_000)

export default function run(job: LiquidJob): LiquidReply {
  try {
    const { engine, templates } = parsedSource(job)
    const { value, warnings } = withinRender(job.locale, () =>
      engine.renderSync(templates, job.data, {
        strictVariables: job.strictVariables,
        renderLimit: job.renderMs,
        memoryLimit: job.memory,
      }),
    )
    const output = String(value)
    if (output.length > job.outputChars) {
      const message = `Template output exceeded ${job.outputChars} characters.`
      return { error: { code: 'template_fuel_exhausted', message } }
    }
    return { output, warnings }
  } catch (err) {
    const partial = partialOf(err, job)
    const error = describeTemplateError(err)
    return partial === undefined ? { error } : { error, partial }
  }
}

function parsedSource(job: LiquidJob): Parsed {
  const engineKey = engineKeyOf(job)
  const key = `${engineKey} ${digest(job.source)}`
  let entry = parsed.get(key)
  if (!entry) {
    let engine = engines.get(engineKey)
    if (!engine) {
      engine = createLiquidEngine(job.partials, job.parseChars)
      engines.set(engineKey, engine)
    }
    entry = { engine, templates: engine.parse(job.source) }
    parsed.set(key, entry, job.source.length)
  }
  return entry
}

function engineKeyOf(job: LiquidJob): string {
  const names = Object.keys(job.partials)
  return names.length === 0
    ? String(job.parseChars)
    : `${job.parseChars} ${digest(JSON.stringify(job.partials))}`
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64')
}

/** The partial an error happened in, if not the template itself. */
function partialOf(err: unknown, job: LiquidJob): string | undefined {
  const token = LiquidError.is(err) ? err.token : undefined
  if (!token || token.input === job.source) return undefined
  // liquidjs names the in-memory file on some tokens only; the text tells the partial apart too
  return token.file ?? Object.keys(job.partials).find((name) => job.partials[name] === token.input)
}
