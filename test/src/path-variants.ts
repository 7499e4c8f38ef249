// Spellings of one path that a router may take for the same route while a guard reading the raw
// request target does not: percent-encoding, doubled slashes, case, dot segments, absolute URIs.

const encodeChar = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`

/** Every character of every segment percent-encoded (the slashes kept). */
function encodeAll(path: string): string {
  return path
    .split('/')
    .map((segment) => [...segment].map(encodeChar).join(''))
    .join('/')
}

/** The character at `index` of the path percent-encoded (a slash at that index is left alone). */
function encodeAt(path: string, index: number): string {
  const c = path[index]
  if (c === undefined || c === '/') return path
  return path.slice(0, index) + encodeChar(c) + path.slice(index + 1)
}

/**
 * The variants of `path` (which starts with '/'), labelled, without the path itself. Some name
 * the same route to our router, some name none; either way a request without a valid key must
 * never succeed or crash.
 */
export function pathVariants(path: string): [label: string, target: string][] {
  const [, first = '', ...rest] = path.split('/')
  const tail = rest.length ? `/${rest.join('/')}` : ''
  const lastIndex = path.length - 1
  return [
    ['first letter encoded', encodeAt(path, 1)],
    ['end of first segment encoded', encodeAt(path, first.length)],
    ['last letter encoded', encodeAt(path, lastIndex)],
    // only the hex digits are letters here
    ['every letter encoded, lower-case hex', encodeAll(path).toLowerCase()],
    ['every letter encoded', encodeAll(path)],
    ['double-encoded', encodeAt(path, 1).replace('%', '%25')],
    ['leading doubled slash', `/${path}`],
    ['inner doubled slash', `/${first}/${tail}`],
    ['trailing slash', `${path}/`],
    ['upper case first segment', `/${first.toUpperCase()}${tail}`],
    ['upper case path', path.toUpperCase()],
    ['dot segment', `/${first}/.${tail}`],
    ['dot-dot segment', `/x/../${first}${tail}`],
    ['encoded dot-dot', `/x/%2e%2e/${first}${tail}`],
    ['encoded slash', `/${first}%2F${tail.slice(1)}`],
    ['semicolon parameter', `/${first};x=1${tail}`],
    ['empty query and fragment', `${path}?#`],
    ['absolute URI', `http://127.0.0.1${path}`],
    ['absolute URI, encoded', `http://127.0.0.1${encodeAt(path, 1)}`],
  ]
}
