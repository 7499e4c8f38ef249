/** One JSON Pointer reference token (RFC 6901): `~` and `/` escaped. */
export function pointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}
