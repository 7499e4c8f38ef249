export type FileDisposition = 'inline' | 'attachment'

/**
 * A Content-Disposition value per RFC 6266: a quoted ASCII `filename` for old clients and the
 * exact name as UTF-8 in `filename*` (RFC 8187). Control characters, quotes, backslashes and path
 * separators never reach the header.
 */
export function contentDisposition(disposition: FileDisposition, filename: string): string {
  const clean = safeFilename(filename)
  if (clean === '') return disposition
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_')
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(clean)}`
}

/** The name without control characters or folder parts; at most 255 characters. */
export function safeFilename(filename: string): string {
  const stripped = filename
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[/\\]/g, '_')
    .trim()
  return [...stripped].slice(0, 255).join('')
}

// encodeURIComponent leaves some characters RFC 8187's attr-char does not allow
function encodeRfc8187(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}
