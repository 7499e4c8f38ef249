import { barcodeSvg, qrSvg } from './code-layers.ts'
import { imageSvg } from './image-layer.ts'
import type { LayerContext } from './layer-context.ts'
import type { Layer, Scene } from './scene-schema.ts'
import { ellipseSvg, lineSvg, rectangleSvg } from './shape-layers.ts'
import { attrs, placed } from './svg-markup.ts'
import { textSvg } from './text-layer.ts'

/**
 * The scene as one SVG document drawn at `size` (output CSS pixels): the scene keeps its
 * proportions and is centred when the asked size has other proportions. The background is
 * resvg's, so it fills the whole output.
 */
export function sceneSvg(scene: Scene, ctx: LayerContext, size: { width: number; height: number }): string {
  let body = ''
  for (const layer of scene.layers) if (layer.visible !== false) body += layerSvg(layer, ctx)
  return `<svg xmlns="http://www.w3.org/2000/svg"${attrs({
    width: size.width,
    height: size.height,
    viewBox: `0 0 ${scene.width} ${scene.height}`,
    preserveAspectRatio: 'xMidYMid meet',
  })}>${body}</svg>`
}

function layerSvg(layer: Layer, ctx: LayerContext): string {
  switch (layer.type) {
    case 'line': {
      const x = layer.x ?? 0
      const y = layer.y ?? 0
      return placed(lineSvg(layer), layer, { x: (x + layer.x2) / 2, y: (y + layer.y2) / 2 })
    }
    case 'text':
      return boxed(layer, textSvg(layer, ctx))
    case 'image':
      return boxed(layer, imageSvg(layer, ctx))
    case 'rectangle':
      return boxed(layer, rectangleSvg(layer))
    case 'ellipse':
      return boxed(layer, ellipseSvg(layer))
    case 'qr':
      return boxed(layer, qrSvg(layer, ctx))
    case 'barcode':
      return boxed(layer, barcodeSvg(layer, ctx))
  }
}

/** Box layers rotate about the centre of their box. */
function boxed(layer: Layer & { width: number; height: number }, markup: string): string {
  const x = layer.x ?? 0
  const y = layer.y ?? 0
  return placed(markup, layer, { x: x + layer.width / 2, y: y + layer.height / 2 })
}
