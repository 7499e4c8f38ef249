import type { RenderContextBase } from '@docsvc/core/sdk'
import { type RenderLiquidOptions, renderLiquidWithWarnings } from './render-liquid.ts'

/** renderLiquid inside a render: the filters' warnings (e.g. locale_unsupported) join the render's. */
export async function renderLiquidForRender(
  source: string,
  data: Record<string, unknown>,
  ctx: Pick<RenderContextBase, 'warn'>,
  options: RenderLiquidOptions = {},
): Promise<string> {
  const { output, warnings } = await renderLiquidWithWarnings(source, data, options)
  for (const w of warnings) ctx.warn(w.code, w.message)
  return output
}
