/** Characters a download name may not carry: path separators, quotes, control characters. */
function safeChar(ch: string): string {
  const code = ch.charCodeAt(0)
  return code < 0x20 || code === 0x7f || ch === '/' || ch === '\\' || ch === '"' ? '_' : ch
}

/** A download name's extension for a file format. */
export function extensionOf(format: string): string {
  return format === 'jpeg' ? 'jpg' : format
}

/** The name without its extension: the request's `filename` made safe, or the render id. */
export function renderFileStem(requested: string | null, renderId: string): string {
  const cleaned = Array.from(requested ?? '', safeChar)
    .join('')
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .trim()
    .slice(0, 150)
  return cleaned || renderId
}

/** A safe download name: the request's `filename` (extension enforced) or the render id. */
export function renderFilename(
  requested: string | null,
  renderId: string,
  ext: string,
  position: number,
  count: number,
): string {
  const stem = renderFileStem(requested, renderId)
  return count > 1 ? `${stem}-${position + 1}.${ext}` : `${stem}.${ext}`
}
