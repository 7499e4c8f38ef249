import type { RenderContextBase } from '@docsvc/core/sdk'
import { type RenderLiquidOptions, renderLiquidWithWarnings } from './render-liquid.ts'

/**
 * renderLiquid inside a render: the output's locale is the filters' default, and their warnings
 * (e.g. locale_unsupported) join the render's.
 */
export async function renderLiquidForRender(
  source: string,
  data: Record<string, unknown>,
  ctx: Pick<RenderContextBase, 'warn'> & { locale?: string },
  options: RenderLiquidOptions = {},
): Promise<string> {
  const { output, warnings } = await renderLiquidWithWarnings(source, data, {
    ...(ctx.locale ? { locale: ctx.locale } : {}),
    ...options,
  })
  for (const w of warnings) ctx.warn(w.code, w.message)
  return output
}
