// Scene values reach the SVG only through these, so no data can add markup to it.

// characters XML 1.0 forbids even when escaped
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g

/** Text content of an element. */
export function xmlText(value: string): string {
  return value.replace(FORBIDDEN, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** A number as an attribute value: finite, short. */
export function num(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 1000) / 1000) : '0'
}

/** A string as a double-quoted attribute value. */
export function attrValue(value: string): string {
  return xmlText(value).replace(/"/g, '&quot;')
}

/** `name="value"` pairs; undefined values are left out. */
export function attrs(values: Record<string, string | number | undefined>): string {
  let out = ''
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue
    const text = typeof value === 'number' ? num(value) : attrValue(value)
    out += ` ${name}="${text}"`
  }
  return out
}

/** A layer's opacity and rotation (about `centre`) around its markup. */
export function placed(
  markup: string,
  layer: { opacity?: number; rotation?: number },
  centre: { x: number; y: number },
): string {
  if (markup === '') return ''
  const opacity = layer.opacity !== undefined && layer.opacity < 1 ? layer.opacity : undefined
  const rotation = layer.rotation
    ? `rotate(${num(layer.rotation)} ${num(centre.x)} ${num(centre.y)})`
    : undefined
  if (opacity === undefined && rotation === undefined) return markup
  return `<g${attrs({ opacity, transform: rotation })}>${markup}</g>`
}
