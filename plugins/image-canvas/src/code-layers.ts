import bwipjs from 'bwip-js'
import QRCode from 'qrcode'
import type { LayerContext } from './layer-context.ts'
import type { BarcodeLayer, QrLayer } from './scene-schema.ts'
import { attrs, attrValue } from './svg-markup.ts'

/** A QR code as one path of square modules, centred and as large as the box allows. */
export function qrSvg(layer: QrLayer, ctx: LayerContext): string {
  if (!layer.value) return ''
  let modules: { size: number; get(row: number, col: number): number | boolean }
  try {
    modules = QRCode.create(layer.value, { errorCorrectionLevel: layer.error_level ?? 'M' }).modules
  } catch (err) {
    ctx.reject(layer, 'value', `${layer.name}.value cannot be a QR code: ${(err as Error).message}`)
  }
  const margin = layer.margin ?? 2
  const span = modules.size + 2 * margin
  // a row's adjacent dark modules as one rectangle: a third of the subpaths for resvg to fill
  let path = ''
  for (let row = 0; row < modules.size; row++)
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue
      const start = col
      while (col + 1 < modules.size && modules.get(row, col + 1)) col++
      const run = col - start + 1
      path += `M${start} ${row}h${run}v1h-${run}z`
    }
  return `<svg${attrs({
    x: layer.x ?? 0,
    y: layer.y ?? 0,
    width: layer.width,
    height: layer.height,
    viewBox: `${-margin} ${-margin} ${span} ${span}`,
    'shape-rendering': 'crispEdges',
  })}><rect${attrs({
    x: -margin,
    y: -margin,
    width: span,
    height: span,
    fill: layer.background ?? '#ffffff',
  })}/><path${attrs({ d: path, fill: layer.color ?? '#000000' })}/></svg>`
}

const BWIP_INK = /"#000000"/g

/** A barcode drawn by bwip-js (bars and text as paths), fitted into the box keeping its proportions. */
export function barcodeSvg(layer: BarcodeLayer, ctx: LayerContext): string {
  if (!layer.value) return ''
  let drawn: string
  try {
    drawn = bwipjs.toSVG({
      bcid: layer.symbology,
      text: layer.value,
      includetext: layer.show_text ?? true,
      textxalign: 'center',
    })
  } catch (err) {
    // bwip-js messages read "bwipp.ean13badLength#6878: EAN-13 must be 12 or 13 digits"
    const reason = String((err as Error).message).replace(/^[\w.]+#\d+:\s*/, '')
    ctx.reject(layer, 'value', `${layer.name}.value cannot be a ${layer.symbology} barcode: ${reason}`)
  }
  const viewBox = /viewBox="([^"]+)"/.exec(drawn)?.[1] ?? '0 0 1 1'
  const body = drawn
    .slice(drawn.indexOf('>') + 1, drawn.lastIndexOf('</svg>'))
    .replace(BWIP_INK, `"${attrValue(layer.color ?? '#000000')}"`)
  const background = layer.background
    ? `<rect${attrs({ x: layer.x ?? 0, y: layer.y ?? 0, width: layer.width, height: layer.height, fill: layer.background })}/>`
    : ''
  return `${background}<svg${attrs({
    x: layer.x ?? 0,
    y: layer.y ?? 0,
    width: layer.width,
    height: layer.height,
    viewBox,
  })}>${body}</svg>`
}
