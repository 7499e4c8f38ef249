// Liquid templating shared by the html and markdown inputs (and, later, template renders).
export { DEFAULT_LIQUID_LIMITS, type LiquidLimits } from './liquid-limits.ts'
export { type RenderLiquidOptions, renderLiquid } from './render-liquid.ts'
export { positionOf, type TemplatePosition, templateProblem } from './template-problem.ts'
