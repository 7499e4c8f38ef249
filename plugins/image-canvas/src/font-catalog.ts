import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type FontFace, parseFontFile } from './font-file.ts'

/** Where fonts are looked for; resvg can read TrueType and OpenType, not Type 1. */
export const FONT_DIRS = ['/usr/share/fonts', '/usr/local/share/fonts']

/** The family used when a layer's family is not installed (and for generic `sans-serif`). */
export const FALLBACK_FAMILY = 'DejaVu Sans'

const GENERIC: Record<string, string> = {
  'sans-serif': 'DejaVu Sans',
  'system-ui': 'DejaVu Sans',
  serif: 'DejaVu Serif',
  monospace: 'DejaVu Sans Mono',
}

/** Covers scripts DejaVu lacks (CJK); used glyph by glyph when the chosen face has no glyph. */
const LAST_RESORT_FAMILY = 'Droid Sans Fallback'

export interface FaceChoice {
  face: FontFace
  /** the asked family list had no installed family; the fallback family was used */
  fellBack: boolean
}

/** Installed font faces by family, read once per process (a scan takes ~50 ms). */
export class FontCatalog {
  readonly #families = new Map<string, FontFace[]>()

  constructor(faces: FontFace[]) {
    for (const face of faces) {
      const key = face.family.toLowerCase()
      const list = this.#families.get(key) ?? []
      list.push(face)
      this.#families.set(key, list)
    }
  }

  static scan(dirs: string[] = FONT_DIRS): FontCatalog {
    const faces: FontFace[] = []
    for (const file of fontFiles(dirs)) {
      try {
        faces.push(parseFontFile(file, readFileSync(file)))
      } catch {
        // unreadable or unsupported (collections, broken files): not offered
      }
    }
    return new FontCatalog(faces)
  }

  /**
   * The face for a CSS-like family list ("Inter, Arial, sans-serif"): the first installed
   * family, its face nearest in weight with the asked style; else the fallback family.
   */
  choose(familyList: string, weight: number, italic: boolean): FaceChoice {
    for (const name of splitFamilies(familyList)) {
      const faces = this.#families.get(resolveGeneric(name).toLowerCase())
      if (faces) return { face: nearest(faces, weight, italic), fellBack: false }
    }
    const fallback = this.#families.get(FALLBACK_FAMILY.toLowerCase())
    if (!fallback) throw new Error(`the fallback font ${FALLBACK_FAMILY} is not installed`)
    return { face: nearest(fallback, weight, italic), fellBack: true }
  }

  /** A face for characters the chosen face lacks, when one is installed. */
  lastResort(): FontFace | undefined {
    const faces = this.#families.get(LAST_RESORT_FAMILY.toLowerCase())
    return faces?.[0]
  }
}

function resolveGeneric(name: string): string {
  return GENERIC[name.toLowerCase()] ?? name
}

export function splitFamilies(list: string): string[] {
  return list
    .split(',')
    .map((name) => name.trim().replace(/^["']|["']$/g, ''))
    .filter((name) => name.length > 0)
}

function nearest(faces: FontFace[], weight: number, italic: boolean): FontFace {
  let best = faces[0] as FontFace
  let bestScore = Number.POSITIVE_INFINITY
  for (const face of faces) {
    // style matters more than a weight step; condensed widths come last
    const condensed = /condensed|narrow/i.test(face.file) ? 50 : 0
    const score = Math.abs(face.weight - weight) + (face.italic === italic ? 0 : 1000) + condensed
    if (score < bestScore) {
      best = face
      bestScore = score
    }
  }
  return best
}

function* fontFiles(dirs: string[]): Generator<string> {
  for (const dir of dirs) {
    let entries: import('node:fs').Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true, recursive: true })
    } catch {
      continue
    }
    for (const entry of entries) {
      if (entry.isFile() && /\.(ttf|otf)$/i.test(entry.name)) yield join(entry.parentPath, entry.name)
    }
  }
}

let shared: FontCatalog | undefined

/** The process-wide catalog of installed fonts. */
export function installedFonts(): FontCatalog {
  shared ??= FontCatalog.scan()
  return shared
}
