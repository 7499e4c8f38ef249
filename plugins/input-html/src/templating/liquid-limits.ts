/**
 * A template's budgets; each one ends the render with template_fuel_exhausted. `renderMs` is hard:
 * liquidjs checks it between template nodes, and the worker thread evaluating the template is
 * terminated when it runs past it anyway (liquidjs' own limits are cooperative and have been
 * bypassed). `parseChars` and `memory` are liquidjs' cooperative checks; `outputChars` is checked
 * before the output leaves the worker. The hard memory budget is the worker's heap, set for the
 * pool (`configureLiquidWorkers`).
 */
export interface LiquidLimits {
  /** characters of template source parsed per render */
  parseChars: number
  /** wall time of one render (or syntax check) inside its worker, in ms */
  renderMs: number
  /** liquidjs' allocation count: string lengths and array sizes made by tags and filters */
  memory: number
  /** characters a render may produce: a document, not a memory bomb handed to the caller */
  outputChars: number
}

export const DEFAULT_LIQUID_LIMITS: LiquidLimits = {
  parseChars: 10_000_000,
  renderMs: 2_000,
  memory: 20_000_000,
  outputChars: 20_000_000,
}
