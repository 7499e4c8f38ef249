import type { RenderWarningCode } from '@docsvc/core/sdk'
import type { FontCatalog } from './font-catalog.ts'

export type Warn = (code: RenderWarningCode, message: string) => void

/** One drawn line of text in canvas pixels, for the PDF's invisible text layer. */
export interface TextRun {
  text: string
  /** left end of the line and its baseline */
  x: number
  baseline: number
  size: number
  /** measured width of the line */
  width: number
}

/** What drawing a layer may need besides the layer itself. */
export interface LayerContext {
  fonts: FontCatalog
  warn: Warn
  /** files of the faces the SVG names; resvg loads only these */
  fontFiles: Set<string>
  /** of those, the faces drawing characters outside their trimmed copies (trimmed-font.ts) */
  wholeFontFiles: Set<string>
  /** image layers' pixels, already fitted to their box, as data: URIs by layer name */
  images: Map<string, string>
  /** characters of text layers that no installed font has a glyph for (drawn as empty boxes) */
  missingGlyphs: Set<string>
  /** lines of unrotated text layers, where they were drawn */
  textRuns: TextRun[]
  /** 422 for a value that cannot be drawn: data_invalid when data set it, else scene_invalid */
  reject(layer: { name: string }, property: string, message: string): never
}
