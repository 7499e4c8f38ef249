/** A safe download name: the request's `filename` (extension enforced) or the render id. */
export function renderFilename(
  requested: string | null,
  renderId: string,
  ext: string,
  position: number,
  count: number,
): string {
  const cleaned = (requested ?? '')
    .replace(/[\\/\x00-\x1f\x7f"]/g, '_')
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .trim()
    .slice(0, 150)
  const stem = cleaned || renderId
  return count > 1 ? `${stem}-${position + 1}.${ext}` : `${stem}.${ext}`
}
