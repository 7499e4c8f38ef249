import { TEST_WATERMARK } from '@docsvc/core/sdk'
import type { Page } from 'playwright-core'

/** A rectangle in CSS pixels of the document. */
export interface Area {
  x: number
  y: number
  width: number
  height: number
}

const TAG = 'docsvc-test-watermark'

// Runs in the page. The host's inline !important styles beat the page's own CSS; the closed
// shadow root keeps the page's selectors off the text. The word is horizontal so text
// extraction reads "TEST".
const INJECT = `((area, fontPx, look) => {
  const host = document.createElement('${TAG}')
  const place = area
    ? { position: 'absolute', left: area.x + 'px', top: area.y + 'px', width: area.width + 'px', height: area.height + 'px' }
    : { position: 'fixed', left: '0', top: '0', width: '100%', height: '100%' }
  const style = { ...place, display: 'flex', 'align-items': 'center', 'justify-content': 'center',
    margin: '0', padding: '0', border: '0', overflow: 'hidden', 'pointer-events': 'none',
    'z-index': '2147483647', background: 'transparent', transform: 'none', opacity: '1' }
  host.setAttribute('style', Object.entries(style).map(([k, v]) => k + ':' + v + ' !important').join(';'))
  const root = host.attachShadow({ mode: 'closed' })
  const word = document.createElement('span')
  word.textContent = look.word
  const { r, g, b } = look.color
  word.setAttribute('style', 'font: 700 ' + fontPx + 'px/1 Arial, Helvetica, sans-serif;' +
    'letter-spacing: ' + look.letterSpacing + 'em; color: rgba(' + r + ', ' + g + ', ' + b + ', ' + look.opacity + ');' +
    'white-space: nowrap; -webkit-print-color-adjust: exact; print-color-adjust: exact;')
  root.appendChild(word)
  document.documentElement.appendChild(host)
})`

/**
 * The TEST mark of test-mode output (SPEC "Test mode"), drawn over the content. Without an
 * area it is position:fixed, which Chromium repeats on every printed page; with one it covers
 * exactly what a screenshot captures.
 */
export async function addTestWatermark(page: Page, fontPx: number, area?: Area): Promise<void> {
  await page.evaluate(
    `${INJECT}(${JSON.stringify(area ?? null)}, ${fontPx}, ${JSON.stringify(TEST_WATERMARK)})`,
  )
}

export async function removeTestWatermark(page: Page): Promise<void> {
  await page.evaluate(`document.querySelectorAll('${TAG}').forEach((e) => e.remove())`)
}
