import type { EllipseLayer, LineLayer, RectangleLayer } from './scene-schema.ts'
import { attrs } from './svg-markup.ts'

function outline(layer: { stroke?: string; stroke_width?: number }) {
  if (!layer.stroke) return {}
  return { stroke: layer.stroke, 'stroke-width': layer.stroke_width ?? 1 }
}

export function rectangleSvg(layer: RectangleLayer): string {
  const radius = layer.radius ? Math.min(layer.radius, layer.width / 2, layer.height / 2) : undefined
  return `<rect${attrs({
    x: layer.x ?? 0,
    y: layer.y ?? 0,
    width: layer.width,
    height: layer.height,
    rx: radius,
    fill: layer.fill ?? '#000000',
    ...outline(layer),
  })}/>`
}

export function ellipseSvg(layer: EllipseLayer): string {
  return `<ellipse${attrs({
    cx: (layer.x ?? 0) + layer.width / 2,
    cy: (layer.y ?? 0) + layer.height / 2,
    rx: layer.width / 2,
    ry: layer.height / 2,
    fill: layer.fill ?? '#000000',
    ...outline(layer),
  })}/>`
}

export function lineSvg(layer: LineLayer): string {
  return `<line${attrs({
    x1: layer.x ?? 0,
    y1: layer.y ?? 0,
    x2: layer.x2,
    y2: layer.y2,
    stroke: layer.stroke ?? '#000000',
    'stroke-width': layer.stroke_width ?? 2,
    'stroke-linecap': layer.line_cap,
  })}/>`
}
