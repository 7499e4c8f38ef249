import type { Liquid } from 'liquidjs'
import { createLiquidEngine } from './liquid-engine.ts'
import { DEFAULT_LIQUID_LIMITS, type LiquidLimits } from './liquid-limits.ts'
import { templateLabel, templateProblem } from './template-problem.ts'

export interface CheckLiquidSyntaxOptions {
  /** names the template in error details (e.g. `footer_html`) */
  label?: string
  /** checked too, each under its own name */
  partials?: Record<string, string>
  limits?: Pick<Partial<LiquidLimits>, 'parseChars'>
}

/**
 * Parses a template and each of its partials without rendering anything: a template_syntax_error
 * names the line, column and excerpt of the first problem (and the partial it is in). Synchronous
 * and in the caller's thread: parsing runs no template code and is bounded by `parseChars`, so
 * it needs no worker (rendering does).
 */
export function checkLiquidSyntax(source: string, options: CheckLiquidSyntaxOptions = {}): void {
  const partials = options.partials ?? {}
  const engine = createLiquidEngine(partials, options.limits?.parseChars ?? DEFAULT_LIQUID_LIMITS.parseChars)
  parse(engine, source, options.label)
  // liquidjs parses a partial only when a render reaches it; a check looks at all of them
  for (const [name, partial] of Object.entries(partials))
    parse(engine, partial, templateLabel(options.label, name))
}

function parse(engine: Liquid, source: string, label: string | undefined): void {
  try {
    engine.parse(source)
  } catch (err) {
    throw templateProblem(err, label)
  }
}
