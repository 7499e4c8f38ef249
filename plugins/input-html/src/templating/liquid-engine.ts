import { Liquid } from 'liquidjs'
import { registerDocumentFilters } from './filters/document-filters.ts'

/**
 * A Liquid engine as documents get it: only the given partials are reachable (no file system),
 * only the data's own properties are visible, unknown filters are syntax errors, and neither the
 * OS's locale nor its time zone leaks into the output.
 */
export function createLiquidEngine(partials: Record<string, string>, parseChars: number): Liquid {
  const engine = new Liquid({
    // an in-memory map replaces the file system: include and render see only these partials
    templates: partials,
    strictFilters: true,
    ownPropertyOnly: true,
    parseLimit: parseChars,
    locale: 'en-US',
    timezoneOffset: 'UTC',
    // parsed partials; an engine is made for one set of partials, so its cache cannot go stale
    cache: 64,
  })
  registerDocumentFilters(engine)
  return engine
}
