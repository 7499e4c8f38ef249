/** Characters a download name may not carry: path separators, quotes, control characters. */
function safeChar(ch: string): string {
  const code = ch.charCodeAt(0)
  return code < 0x20 || code === 0x7f || ch === '/' || ch === '\\' || ch === '"' ? '_' : ch
}

/** A safe download name: the request's `filename` (extension enforced) or the render id. */
export function renderFilename(
  requested: string | null,
  renderId: string,
  ext: string,
  position: number,
  count: number,
): string {
  const cleaned = Array.from(requested ?? '', safeChar)
    .join('')
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .trim()
    .slice(0, 150)
  const stem = cleaned || renderId
  return count > 1 ? `${stem}-${position + 1}.${ext}` : `${stem}.${ext}`
}
