import { Liquid } from 'liquidjs'
import { DEFAULT_LIQUID_LIMITS, type LiquidLimits } from './liquid-limits.ts'
import { templateProblem } from './template-problem.ts'

export interface RenderLiquidOptions {
  /** names the template in error details when a request has several (e.g. `head`) */
  label?: string
  /** templates `include` and `render` may name; nothing else is reachable (no file system) */
  partials?: Record<string, string>
  /** an undefined variable is a template_runtime_error instead of an empty string */
  strictVariables?: boolean
  limits?: Partial<LiquidLimits>
}

let sharedEngine: Liquid | undefined

/**
 * Renders a Liquid template with `data`. Pure apart from the CPU it burns: no file system, no
 * JavaScript, only the data's own properties; errors are ProblemErrors with line and column.
 */
export async function renderLiquid(
  source: string,
  data: Record<string, unknown>,
  options: RenderLiquidOptions = {},
): Promise<string> {
  const limits = { ...DEFAULT_LIQUID_LIMITS, ...options.limits }
  try {
    return await engineFor(options, limits).parseAndRender(source, data, {
      strictVariables: options.strictVariables ?? false,
      renderLimit: limits.renderMs,
      memoryLimit: limits.memory,
    })
  } catch (err) {
    throw templateProblem(err, options.label)
  }
}

function engineFor(options: RenderLiquidOptions, limits: LiquidLimits): Liquid {
  // parse limit and partials are per engine; the common case shares one engine
  if (options.partials || limits.parseChars !== DEFAULT_LIQUID_LIMITS.parseChars) {
    return createEngine(options.partials ?? {}, limits.parseChars)
  }
  sharedEngine ??= createEngine({}, DEFAULT_LIQUID_LIMITS.parseChars)
  return sharedEngine
}

function createEngine(partials: Record<string, string>, parseChars: number): Liquid {
  return new Liquid({
    // an in-memory map replaces the file system: includes see only these partials
    templates: partials,
    strictFilters: true,
    ownPropertyOnly: true,
    parseLimit: parseChars,
    // the OS's default locale must not leak into documents
    locale: 'en-US',
    cache: false,
  })
}
