import { PDFArray, PDFDict, PDFName, PDFRawStream } from '@cantoo/pdf-lib'
import { cidSetListsAllGlyphs } from './cid-set.ts'
import { differences } from './encoding-differences.ts'
import { glyphNameToUnicode } from './glyph-list.ts'
import type { ModelObject, ModelTypes } from './model-object.ts'
import type { PageUse } from './page-resources.ts'
import { refLabel, type Values } from './pdf-values.ts'
import { readTrueType } from './truetype-program.ts'

// Font dictionaries (ISO 19005-2 6.2.11.2 to 6.2.11.6) as the pages use them. What needs the
// font program's glyphs or the text drawn with it (Glyph, renderingMode, CharSet and CIDSet
// completeness, Unicode compliance of Differences) is not modelled here.

export const FONT_TYPES: ModelTypes = {
  PDFont: { props: ['Type', 'Subtype', 'fontName', 'fontFileSubtype', 'containsFontFile', 'renderingMode'] },
  PDSimpleFont: { parent: 'PDFont', props: ['isStandard', 'FirstChar', 'LastChar', 'Widths_size'] },
  PDTrueTypeFont: {
    parent: 'PDSimpleFont',
    props: ['isSymbolic', 'Encoding', 'containsDifferences', 'differencesAreUnicodeCompliant'],
  },
  PDType1Font: { parent: 'PDSimpleFont', props: ['CharSet'] },
  PDType3Font: { parent: 'PDSimpleFont', props: [] },
  PDType0Font: {
    parent: 'PDFont',
    props: [
      'cmapName',
      'CIDFontOrdering',
      'CMapOrdering',
      'CIDFontRegistry',
      'CMapRegistry',
      'CIDFontSupplement',
      'CMapSupplement',
    ],
  },
  PDCIDFont: { parent: 'PDFont', props: ['CIDToGIDMap', 'containsCIDSet', 'cidSetListsAllGlyphs'] },
  PDCMap: { props: ['CMapName', 'containsEmbeddedFile'] },
  CMapFile: { props: ['WMode', 'dictWMode', 'maximalCID'] },
  TrueTypeFontProgram: { props: ['isSymbolic', 'nrCmaps', 'cmap30Present'] },
}

const STANDARD_14 = new Set([
  'Times-Roman',
  'Times-Bold',
  'Times-Italic',
  'Times-BoldItalic',
  'Helvetica',
  'Helvetica-Bold',
  'Helvetica-Oblique',
  'Helvetica-BoldOblique',
  'Courier',
  'Courier-Bold',
  'Courier-Oblique',
  'Courier-BoldOblique',
  'Symbol',
  'ZapfDingbats',
])

function fontFile(v: Values, descriptor: PDFDict | undefined): PDFRawStream | undefined {
  return (
    v.stream(descriptor, 'FontFile') ?? v.stream(descriptor, 'FontFile2') ?? v.stream(descriptor, 'FontFile3')
  )
}

function baseProps(v: Values, font: PDFDict, descriptor: PDFDict | undefined, renderingMode: number | null) {
  const file = fontFile(v, descriptor)
  const ff3 = v.stream(descriptor, 'FontFile3')
  return {
    Type: v.name(font, 'Type'),
    Subtype: v.name(font, 'Subtype'),
    fontName: v.name(font, 'BaseFont'),
    fontFileSubtype: ff3 ? v.name(ff3.dict, 'Subtype') : null,
    containsFontFile: file !== undefined,
    renderingMode,
  }
}

function cidSystemInfo(v: Values, d: PDFDict | undefined) {
  const info = v.dict(d, 'CIDSystemInfo')
  return {
    registry: v.text(info, 'Registry'),
    ordering: v.text(info, 'Ordering'),
    supplement: v.number(info, 'Supplement'),
  }
}

/** `renderingModes`: per font, the text rendering mode it is drawn with (null: never shown) */
export function fontObjects(
  v: Values,
  use: PageUse,
  renderingModes: ReadonlyMap<PDFDict, number>,
): ModelObject[] {
  const out: ModelObject[] = []
  for (const f of use.fonts) {
    const font = f.obj
    const subtype = v.name(font, 'Subtype')
    const context = `${refLabel(f.ref)} font /${f.name} ${v.name(font, 'BaseFont') ?? ''}`.trim()
    if (subtype === 'Type0') {
      const descendant = v.items(v.array(font, 'DescendantFonts'))[0]
      const cid = descendant instanceof PDFDict ? descendant : undefined
      const encoding = v.get(font, 'Encoding')
      const embeddedCMap = encoding instanceof PDFRawStream ? encoding : undefined
      const cmapName =
        encoding instanceof PDFName
          ? encoding.decodeText()
          : embeddedCMap
            ? v.name(embeddedCMap.dict, 'CMapName')
            : null
      const cidInfo = cidSystemInfo(v, cid)
      const cmapInfo = embeddedCMap
        ? cidSystemInfo(v, embeddedCMap.dict)
        : cidInfo.ordering === null
          ? cidInfo
          : undefined
      out.push({
        type: 'PDType0Font',
        page: f.page,
        context,
        props: {
          ...baseProps(v, font, undefined, renderingModes.get(font) ?? null),
          containsFontFile: cid ? fontFile(v, v.dict(cid, 'FontDescriptor')) !== undefined : false,
          cmapName,
          CIDFontOrdering: cidInfo.ordering,
          CIDFontRegistry: cidInfo.registry,
          CIDFontSupplement: cidInfo.supplement,
          // a predefined CMap's registry and ordering are those of its character collection
          CMapOrdering: cmapInfo?.ordering ?? predefinedOrdering(cmapName),
          CMapRegistry: cmapInfo?.registry ?? (cmapName ? 'Adobe' : null),
          CMapSupplement: cmapInfo?.supplement ?? (cmapName ? Number.POSITIVE_INFINITY : null),
        },
      })
      if (cmapName !== null || embeddedCMap) {
        out.push({
          type: 'PDCMap',
          page: f.page,
          context: `${context} CMap`,
          props: { CMapName: cmapName, containsEmbeddedFile: embeddedCMap !== undefined },
        })
      }
      if (embeddedCMap) {
        const program = v.decoded(embeddedCMap)
        const text = program ? Buffer.from(program).toString('latin1') : ''
        out.push({
          type: 'CMapFile',
          page: f.page,
          context: `${context} embedded CMap`,
          props: {
            WMode: Number(/\/WMode\s+(\d+)\s+def/.exec(text)?.[1] ?? 0),
            dictWMode: v.number(embeddedCMap.dict, 'WMode') ?? 0,
            maximalCID: maximalCid(text),
          },
        })
      }
      if (cid) {
        const descriptor = v.dict(cid, 'FontDescriptor')
        const listsAll = cidSetListsAllGlyphs(v, cid, descriptor)
        out.push({
          type: 'PDCIDFont',
          page: f.page,
          context: `${context} descendant`,
          props: {
            ...baseProps(v, cid, descriptor, renderingModes.get(font) ?? null),
            CIDToGIDMap: v.has(cid, 'CIDToGIDMap') ? 'present' : null,
            containsCIDSet: v.has(descriptor, 'CIDSet'),
            cidSetListsAllGlyphs: listsAll ?? null,
          },
          ...(listsAll === undefined ? { unknown: ['cidSetListsAllGlyphs'] } : {}),
        })
      }
      continue
    }
    const descriptor = v.dict(font, 'FontDescriptor')
    const base = baseProps(v, font, descriptor, renderingModes.get(font) ?? null)
    const widths = v.array(font, 'Widths')
    const flags = v.number(descriptor, 'Flags') ?? 0
    const encoding = v.get(font, 'Encoding')
    const encodingDict = encoding instanceof PDFDict ? encoding : undefined
    const simple = {
      ...base,
      isStandard: !base.containsFontFile && base.fontName !== null && STANDARD_14.has(base.fontName),
      FirstChar: v.number(font, 'FirstChar'),
      LastChar: v.number(font, 'LastChar'),
      Widths_size: widths ? widths.size() : null,
    }
    const program = subtype === 'TrueType' ? v.stream(descriptor, 'FontFile2') : undefined
    const bytes = program ? v.decoded(program) : undefined
    const cmaps = bytes ? readTrueType(bytes)?.cmaps?.map((c) => `${c.platform},${c.encoding}`) : undefined
    if (cmaps) {
      out.push({
        type: 'TrueTypeFontProgram',
        page: f.page,
        context: `${context} font program`,
        props: { isSymbolic: (flags & 4) !== 0, nrCmaps: cmaps.length, cmap30Present: cmaps.includes('3,0') },
      })
    }
    if (subtype === 'TrueType') {
      out.push({
        type: 'PDTrueTypeFont',
        page: f.page,
        context,
        props: {
          ...simple,
          isSymbolic: (flags & 4) !== 0,
          Encoding:
            encoding instanceof PDFName
              ? encoding.decodeText()
              : encodingDict
                ? v.name(encodingDict, 'BaseEncoding')
                : null,
          containsDifferences: encodingDict ? v.get(encodingDict, 'Differences') instanceof PDFArray : false,
          // every Differences name says which character it is, and the program can look it up by
          // Unicode: a Microsoft Unicode (3,1) cmap (ISO 19005-2 6.2.11.6, ISO 14289-1 7.21.6)
          differencesAreUnicodeCompliant:
            [...differences(v, encodingDict).values()].every(
              (name) => glyphNameToUnicode(name) !== undefined,
            ) &&
            (cmaps?.includes('3,1') ?? false),
        },
      })
    } else if (subtype === 'Type1' || subtype === 'MMType1') {
      out.push({
        type: 'PDType1Font',
        page: f.page,
        context,
        props: { ...simple, CharSet: v.text(descriptor, 'CharSet') },
      })
    } else if (subtype === 'Type3') {
      out.push({ type: 'PDType3Font', page: f.page, context, props: simple })
    } else {
      out.push({ type: 'PDFont', page: f.page, context, props: base })
    }
  }
  return out
}

// Adobe's predefined CMaps name their character collection (ISO 32000-1 Table 118)
function predefinedOrdering(cmap: string | null): string | null {
  if (!cmap) return null
  if (cmap.startsWith('Identity')) return 'Identity'
  if (/GB|UniGB/.test(cmap)) return 'GB1'
  if (/B5|CNS|ETen|HKscs/.test(cmap)) return 'CNS1'
  if (/KSC|UniKS/.test(cmap)) return 'Korea1'
  return 'Japan1'
}

/** The largest CID a CMap program maps to (cidrange and cidchar blocks, ISO 32000-1 9.7.5). */
function maximalCid(program: string): number {
  let max = 0
  const hex = (h: string) => Number.parseInt(h, 16)
  for (const block of program.matchAll(/begincidrange([\s\S]*?)endcidrange/g)) {
    for (const m of (block[1] ?? '').matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(\d+)/g)) {
      max = Math.max(max, Number(m[3]) + hex(m[2]!) - hex(m[1]!))
    }
  }
  for (const block of program.matchAll(/begincidchar([\s\S]*?)endcidchar/g)) {
    for (const m of (block[1] ?? '').matchAll(/<[0-9A-Fa-f]+>\s*(\d+)/g)) max = Math.max(max, Number(m[1]))
  }
  return max
}
