/**
 * liquidjs' cooperative budgets. They stop ordinary runaway templates (a huge `for` range, a
 * string blown up by filters, a loop that runs too long); the templates issue adds a killable
 * worker around evaluation for the cases they cannot catch (DESIGN.md §7).
 */
export interface LiquidLimits {
  /** characters of template source parsed per render */
  parseChars: number
  /** wall time of one render, in ms (checked between template nodes) */
  renderMs: number
  /** liquidjs' allocation count: string lengths and array sizes made by tags and filters */
  memory: number
}

export const DEFAULT_LIQUID_LIMITS: LiquidLimits = {
  parseChars: 10_000_000,
  renderMs: 5_000,
  memory: 20_000_000,
}
