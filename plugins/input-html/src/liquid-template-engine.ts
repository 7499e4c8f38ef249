import type { TemplateEngine } from '@docsvc/core/sdk'
import { checkLiquidSyntax, renderLiquidWithWarnings } from './templating/index.ts'

/** Liquid as core's template engine (`liquid`): renders in the killable worker threads. */
export const liquidTemplateEngine: TemplateEngine = {
  render: (source, data, options = {}) => renderLiquidWithWarnings(source, data, options),
  checkSyntax: (source, options = {}) => checkLiquidSyntax(source, options),
}
