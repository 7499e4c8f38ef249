import type { RouteEntry } from './route-inventory.ts'

function matches(pattern: string, path: string): boolean {
  const want = pattern.split('/')
  const got = path.split('/')
  if (want.at(-1) === '*')
    return got.length >= want.length - 1 && want.slice(0, -1).every((w, i) => same(w, got[i]))
  return want.length === got.length && want.every((w, i) => same(w, got[i]))
}

function same(segment: string, sent: string | undefined): boolean {
  if (sent === undefined) return false
  return segment.startsWith(':') ? sent.length > 0 : segment === sent
}

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/**
 * The methods the app serves at a concrete path (`/v1/renders/rnd_1`), for 405's `Allow`:
 * empty when no route has the path at all (a 404). HEAD goes with GET, as Fastify serves it.
 */
export function allowedMethods(routes: readonly RouteEntry[], path: string): string[] {
  const methods = new Set(routes.filter((r) => matches(r.url, path)).map((r) => r.method.toUpperCase()))
  if (methods.has('GET')) methods.add('HEAD')
  return [...methods].sort((a, b) => rank(a) - rank(b))
}

function rank(method: string): number {
  const at = ORDER.indexOf(method)
  return at === -1 ? ORDER.length : at
}
