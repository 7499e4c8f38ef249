// Anything that could run script or open another browsing context (script elements, event
// handler attributes, javascript: URLs, frames and plugins, meta refresh), and what renders
// differently with scripts off (<noscript>, the `scripting` media feature). Text that merely
// looks like one of them only costs the slower path.
const MAY_RUN_SCRIPTS =
  /<script\b|<noscript\b|<i?frame\b|<object\b|<embed\b|<portal\b|<fencedframe\b|http-equiv|javascript:|[\s/"']on[a-z]+\s*=|\(\s*scripting\b/i

/**
 * Whether an HTML document may need JavaScript. One that cannot is rendered with scripts off,
 * so it leaves no JS state behind and its page is reused without a navigation. A construct this
 * misses cannot run either (scripts are off), so a miss can change output but never leak state.
 */
export function mayRunScripts(html: string): boolean {
  return MAY_RUN_SCRIPTS.test(html)
}
