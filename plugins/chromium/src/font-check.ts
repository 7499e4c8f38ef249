import type { Frame } from 'playwright-core'
import { shortUrl } from './asset-watch.ts'
import { PAGE_CHECK, type TemplateToCheck } from './font-check-page.ts'
import { type PooledPage, withTimeout } from './pooled-page.ts'

// The one check for glyphs no font covers, and for web fonts that did not load (decisions 0071,
// 0094). It runs in the page after the output is made, on the layout that was printed or captured:
// in the main document (its text, generated content, canvas text and the PDF's header and footer
// templates) and then in each of its frames (font-check-page.ts does the looking).

const CHECK_TIMEOUT_MS = 5_000
// frames past this many are not looked at (a page of a hundred ads is not a document)
const MAX_FRAMES = 20
// places named one warning each; the rest share one
export const MAX_PLACES = 10

export type { TemplateToCheck }

/** What draws the characters: the fix a user needs differs. */
export type PlaceKind = 'text' | 'canvas' | 'template'

/** Characters no font covers in one place of the output. */
export interface MissingPlace {
  /** '' for the document's own text; else `header template`, `canvas`, `frame <url>`... */
  where: string
  kind: PlaceKind
  chars: string[]
  /** the check stopped looking after 200 missing characters: there may be more */
  more: boolean
}

/** What the check found: characters drawn as .notdef boxes, web fonts that failed to load. */
export interface FontReport {
  places: MissingPlace[]
  failedFonts: FailedFont[]
  /** frames that could not be looked at in time (named in the render's log) */
  unchecked: string[]
}

export interface FailedFont {
  family: string
  /** the @font-face sources of that face, when the page's style sheets can be read */
  urls: string[]
}

interface DocumentReport {
  places: MissingPlace[]
  failedFonts: FailedFont[]
}

/**
 * Runs the check in the main document (through CDP, whose timeout stops a check that runs away)
 * and in every frame; a document that cannot be checked in time finds nothing. Undefined when
 * the main document could not be checked.
 */
export async function checkFonts(
  pooled: PooledPage,
  deadline: number,
  templates: TemplateToCheck[] = [],
): Promise<FontReport | undefined> {
  const until = Date.now() + Math.max(1, Math.min(CHECK_TIMEOUT_MS, deadline - Date.now()))
  const left = () => Math.max(1, until - Date.now())
  // listed first: the frames the check itself lays the templates out in are not the page's
  const frames = pooled.page.frames().filter((f) => f !== pooled.page.mainFrame() && !f.isDetached())
  const main = await withTimeout(
    pooled.cdp.send('Runtime.evaluate', {
      expression: `${PAGE_CHECK}(${JSON.stringify({ templates })})`,
      returnByValue: true,
      awaitPromise: true,
      timeout: left(),
      silent: true,
    }),
    left(),
  ).catch(() => undefined)
  if (!main || main.exceptionDetails) return undefined
  const report = main.result.value as DocumentReport
  const places = [...report.places]
  const failedFonts = [...report.failedFonts]
  const unchecked: string[] = []
  for (const frame of frames.slice(0, MAX_FRAMES)) {
    const label = frameLabel(frame)
    const found = await withTimeout(
      frame.evaluate(`${PAGE_CHECK}(${JSON.stringify({ templates: [] })})`) as Promise<DocumentReport>,
      left(),
    ).catch(() => undefined)
    if (!found) {
      // a frame removed meanwhile is no loss; one that did not answer is said in the log
      if (!frame.isDetached()) unchecked.push(label)
      continue
    }
    for (const place of found.places)
      places.push({ ...place, where: place.where ? `${place.where} in ${label}` : label })
    failedFonts.push(...found.failedFonts)
  }
  for (const frame of frames.slice(MAX_FRAMES)) unchecked.push(frameLabel(frame))
  return { places: fewerPlaces(places), failedFonts, unchecked }
}

/** `frame <url>`; a srcdoc frame is also named by its name or id when it has one. */
function frameLabel(frame: Frame): string {
  const name = frame.name()
  return `frame ${shortUrl(frame.url())}${name && frame.url() === 'about:srcdoc' ? ` (${name})` : ''}`
}

/** At most MAX_PLACES places: those past it are told together. */
function fewerPlaces(places: MissingPlace[]): MissingPlace[] {
  if (places.length <= MAX_PLACES) return places
  const kept = places.slice(0, MAX_PLACES - 1)
  const rest = places.slice(MAX_PLACES - 1)
  const chars = [...new Set(rest.flatMap((p) => p.chars))]
  const kinds = new Set(rest.map((p) => p.kind))
  kept.push({
    where: `${rest.length} more places (${rest
      .slice(0, 3)
      .map((p) => p.where || 'the document')
      .join(', ')}...)`,
    kind: kinds.size === 1 ? [...kinds][0]! : 'text',
    chars,
    more: rest.some((p) => p.more),
  })
  return kept
}
