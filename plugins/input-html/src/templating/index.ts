// Liquid templating shared by the html and markdown inputs and template renders. Templates are
// evaluated in killable worker threads (docs/decisions/0013-killable-liquid-workers.md).
export { type CheckLiquidSyntaxOptions, checkLiquidSyntax } from './check-liquid-syntax.ts'
export { createLiquidEngine } from './liquid-engine.ts'
export { DEFAULT_LIQUID_LIMITS, type LiquidLimits } from './liquid-limits.ts'
export {
  configureLiquidWorkers,
  DEFAULT_LIQUID_WORKERS,
  type LiquidRendering,
  type LiquidWorkerPoolOptions,
  type RenderLiquidOptions,
  renderLiquid,
  renderLiquidWithWarnings,
  stopLiquidWorkers,
  warmLiquidWorkers,
} from './render-liquid.ts'
export { renderLiquidForRender } from './render-liquid-for-input.ts'
export type { TemplateErrorCode, TemplateErrorInfo } from './template-error.ts'
export { positionOf, type TemplatePosition } from './template-position.ts'
export { templateProblem } from './template-problem.ts'
