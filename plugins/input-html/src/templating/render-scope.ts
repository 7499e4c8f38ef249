import type { RenderWarning } from '@docsvc/core/sdk'

// Filters have no channel to the caller, so what they need from it (the default locale) and what
// they report (warnings) belong to the render in progress. A worker evaluates one template at a
// time, synchronously, which makes a module-level scope exact.

interface RenderScope {
  locale: string | undefined
  warnings: Map<string, RenderWarning>
}

let scope: RenderScope | undefined

/** Runs a synchronous render in its scope; returns what it made and the warnings raised. */
export function withinRender<T>(
  locale: string | undefined,
  render: () => T,
): { value: T; warnings: RenderWarning[] } {
  const current: RenderScope = { locale, warnings: new Map() }
  scope = current
  try {
    return { value: render(), warnings: [...current.warnings.values()] }
  } finally {
    scope = undefined
  }
}

/** The locale the render's filters use when they name none, if the caller gave one. */
export function renderLocale(): string | undefined {
  return scope?.locale
}

/** Raises a render warning once per render, however many times a loop repeats it. */
export function warnTemplate(code: RenderWarning['code'], message: string): void {
  scope?.warnings.set(`${code} ${message}`, { code, message })
}
