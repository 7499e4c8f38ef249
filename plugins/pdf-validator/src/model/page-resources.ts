import { PDFArray, PDFDict, PDFName, type PDFObject, PDFRawStream, PDFRef, PDFStream } from '@cantoo/pdf-lib'
import { isName, type Operation, parseContent } from './content-stream.ts'
import type { Values } from './pdf-values.ts'

// What each page draws: its content streams are read, and the fonts, graphics states, images,
// forms, patterns and colour spaces they name are followed (forms, patterns, soft masks, Type 3
// glyphs and annotation appearances are content in turn). veraPDF checks the objects a page
// uses; a resource nobody draws with is not checked.

export interface Used<T> {
  obj: T
  ref: PDFRef | undefined
  page: number
  /** the resource name it was used under */
  name: string
  /** the resources whose Default colour spaces apply where it is used */
  scope?: PDFDict | undefined
}

export interface DrawnContent {
  stream: PDFRawStream
  /** the stream's own resources (a page's may be inherited from the page tree) */
  resources: PDFDict | undefined
  page: number
  ref: PDFRef | undefined
  /** a page's own content (its resources may come from the page tree) */
  isPage: boolean
  ops: Operation[]
  /** its hexadecimal strings as written (ISO 19005-2 6.1.6) */
  hexStrings: string[]
}

export interface PageUse {
  fonts: Used<PDFDict>[]
  extGStates: Used<PDFDict>[]
  xobjects: Used<PDFRawStream>[]
  colorSpaces: Used<PDFObject>[]
  shadings: Used<PDFDict>[]
  contents: DrawnContent[]
  /** how many `Do` operators paint each XObject, over every content stream followed */
  timesDrawn: Map<PDFRawStream, number>
}

/** content streams followed per document, at most: a bound for hostile nesting */
const MAX_CONTENTS = 20_000

export function pageUse(v: Values, pages: PDFDict[], pageRefs: (PDFRef | undefined)[]): PageUse {
  const use: PageUse = {
    fonts: [],
    extGStates: [],
    xobjects: [],
    colorSpaces: [],
    shadings: [],
    contents: [],
    timesDrawn: new Map(),
  }
  const seen = new Set<PDFObject>()
  const once = (o: PDFObject) => {
    if (seen.has(o)) return false
    seen.add(o)
    return true
  }
  const lookup = (
    res: PDFDict | undefined,
    fallback: PDFDict | undefined,
    category: string,
    name: string,
  ) => {
    for (const r of [res, fallback]) {
      const d = v.dict(r, category)
      const raw = d?.get(PDFName.of(name))
      if (raw) return { ref: raw instanceof PDFRef ? raw : undefined, obj: v.resolve(raw) }
    }
    return undefined
  }

  const draw = (
    stream: PDFRawStream,
    resources: PDFDict | undefined,
    pageRes: PDFDict | undefined,
    page: number,
    ref: PDFRef | undefined,
    isPage: boolean,
    depth: number,
  ) => {
    if (depth > 32 || use.contents.length >= MAX_CONTENTS) return
    const bytes = v.decoded(stream)
    const ops: Operation[] = []
    const hexStrings: string[] = []
    if (bytes)
      parseContent(
        bytes,
        (o) => ops.push(o),
        (h) => hexStrings.push(h),
      )
    use.contents.push({ stream, resources, page, ref, isPage, ops, hexStrings })
    const scope = isPage ? pageRes : resources
    for (const { op, operands } of ops) {
      const last = operands[operands.length - 1]
      const first = operands[0]
      if (op === 'Tf' && isName(first)) {
        const f = lookup(resources, pageRes, 'Font', first.name)
        if (f?.obj instanceof PDFDict && once(f.obj)) {
          use.fonts.push({ obj: f.obj, ref: f.ref, page, name: first.name })
          if (v.name(f.obj, 'Subtype') === 'Type3') {
            // glyph procedures without Resources of their own borrow the page's (6.2.2)
            const fontRes = v.dict(f.obj, 'Resources')
            for (const [, proc] of v.dict(f.obj, 'CharProcs')?.entries() ?? []) {
              const s = v.resolve(proc)
              if (s instanceof PDFRawStream && once(s))
                draw(s, fontRes, pageRes, page, undefined, false, depth + 1)
            }
          }
        }
      } else if (op === 'Do' && isName(first)) {
        const x = lookup(resources, pageRes, 'XObject', first.name)
        if (x?.obj instanceof PDFRawStream) use.timesDrawn.set(x.obj, (use.timesDrawn.get(x.obj) ?? 0) + 1)
        if (!(x?.obj instanceof PDFRawStream) || !once(x.obj)) continue
        use.xobjects.push({ obj: x.obj, ref: x.ref, page, name: first.name, scope })
        const subtype = v.name(x.obj.dict, 'Subtype')
        if (subtype === 'Form')
          draw(x.obj, v.dict(x.obj.dict, 'Resources'), pageRes, page, x.ref, false, depth + 1)
        const smask = v.get(x.obj.dict, 'SMask')
        if (smask instanceof PDFRawStream && once(smask))
          use.xobjects.push({ obj: smask, ref: undefined, page, name: `${first.name} SMask` })
      } else if (op === 'gs' && isName(first)) {
        const g = lookup(resources, pageRes, 'ExtGState', first.name)
        if (!(g?.obj instanceof PDFDict) || !once(g.obj)) continue
        use.extGStates.push({ obj: g.obj, ref: g.ref, page, name: first.name })
        const group = v.get(v.dict(g.obj, 'SMask'), 'G')
        if (group instanceof PDFRawStream && once(group))
          draw(group, v.dict(group.dict, 'Resources'), pageRes, page, undefined, false, depth + 1)
      } else if (
        (op === 'cs' || op === 'CS') &&
        isName(first) &&
        !first.name.startsWith('Device') &&
        first.name !== 'Pattern'
      ) {
        const cs = lookup(resources, pageRes, 'ColorSpace', first.name)
        if (cs?.obj) use.colorSpaces.push({ obj: cs.obj, ref: cs.ref, page, name: first.name, scope })
      } else if (op === 'sh' && isName(first)) {
        const sh = lookup(resources, pageRes, 'Shading', first.name)
        const d = sh?.obj instanceof PDFStream ? sh.obj.dict : sh?.obj instanceof PDFDict ? sh.obj : undefined
        if (d) use.shadings.push({ obj: d, ref: sh?.ref, page, name: first.name, scope })
      } else if ((op === 'scn' || op === 'SCN') && isName(last)) {
        const p = lookup(resources, pageRes, 'Pattern', last.name)
        if (p?.obj instanceof PDFRawStream && once(p.obj))
          draw(p.obj, v.dict(p.obj.dict, 'Resources'), pageRes, page, p.ref, false, depth + 1)
        else if (p?.obj instanceof PDFDict) {
          const shading = v.get(p.obj, 'Shading')
          const d =
            shading instanceof PDFStream ? shading.dict : shading instanceof PDFDict ? shading : undefined
          if (d) use.shadings.push({ obj: d, ref: p.ref, page, name: last.name, scope })
        }
      }
    }
  }

  pages.forEach((pageDict, i) => {
    const page = i + 1
    const inheritedRes = inherited(v, pageDict, 'Resources')
    const resources = inheritedRes instanceof PDFDict ? inheritedRes : undefined
    // the page's own dictionary: what it takes from the page tree counts as borrowed (6.2.2)
    const own = v.dict(pageDict, 'Resources')
    for (const stream of contentStreams(v, pageDict)) draw(stream, own, resources, page, pageRefs[i], true, 0)
    for (const annot of v.items(v.array(pageDict, 'Annots'))) {
      if (!(annot instanceof PDFDict)) continue
      for (const appearance of appearanceStreams(v, annot)) {
        if (once(appearance))
          draw(appearance, v.dict(appearance.dict, 'Resources'), resources, page, undefined, false, 1)
      }
    }
  })
  return use
}

/** An attribute a page or field may take from its ancestors (/Parent): Resources, MediaBox, FT, TU... */
export function inherited(v: Values, page: PDFDict, key: string): PDFObject | undefined {
  let node: PDFDict | undefined = page
  for (let i = 0; node && i < 64; i++) {
    const val = v.get(node, key)
    if (val) return val
    node = v.dict(node, 'Parent')
  }
  return undefined
}

export function contentStreams(v: Values, page: PDFDict): PDFRawStream[] {
  const c = v.get(page, 'Contents')
  if (c instanceof PDFRawStream) return [c]
  if (c instanceof PDFArray) return v.items(c).filter((s): s is PDFRawStream => s instanceof PDFRawStream)
  return []
}

export function appearanceStreams(v: Values, annot: PDFDict): PDFRawStream[] {
  const ap = v.dict(annot, 'AP')
  const out: PDFRawStream[] = []
  for (const key of ['N', 'R', 'D']) {
    const entry = v.get(ap, key)
    if (entry instanceof PDFRawStream) out.push(entry)
    else if (entry instanceof PDFDict && !(entry instanceof PDFStream)) {
      for (const [, s] of entry.entries()) {
        const r = v.resolve(s)
        if (r instanceof PDFRawStream) out.push(r)
      }
    }
  }
  return out
}
