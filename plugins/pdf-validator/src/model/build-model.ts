import { PDFDict, PDFDocument, PDFName, type PDFObject, PDFRawStream, PDFRef } from '@cantoo/pdf-lib'
import { COS_TYPES, cosDocument, cosObjects } from './cos-objects.ts'
import { DOCUMENT_TYPES, documentObjects, outputColorSpace } from './document-objects.ts'
import { FONT_TYPES, fontObjects } from './font-objects.ts'
import { GLYPH_TYPES, glyphObjects } from './glyph-objects.ts'
import { GRAPHICS_TYPES, graphicsObjects } from './graphics-objects.ts'
import { MARKED_CONTENT_TYPES, markedContentObjects } from './marked-content.ts'
import type { ModelObject, ModelTypes } from './model-object.ts'
import { inherited, pageUse } from './page-resources.ts'
import { Values } from './pdf-values.ts'
import { readRawFile } from './raw-file.ts'
import { STRUCTURE_TYPES, structureObjects } from './structure-objects.ts'
import { XMP_EXTENSION_TYPES, xmpExtensionObjects } from './xmp-extension.ts'
import { mainXmp, XMP_TYPES, xmpObjects } from './xmp-objects.ts'
import { XMP_PROPERTY_TYPES, xmpPropertyObjects } from './xmp-properties.ts'

/** Every type the model builds, with its properties: what decides which rules are checked. */
export const MODEL_TYPES: ModelTypes = {
  ...COS_TYPES,
  ...DOCUMENT_TYPES,
  ...GRAPHICS_TYPES,
  ...FONT_TYPES,
  ...XMP_TYPES,
  ...XMP_PROPERTY_TYPES,
  ...XMP_EXTENSION_TYPES,
  ...STRUCTURE_TYPES,
  ...GLYPH_TYPES,
  ...MARKED_CONTENT_TYPES,
}
// page properties the graphics layer computes
MODEL_TYPES.PDPage = { props: [...(DOCUMENT_TYPES.PDPage?.props ?? []), 'gOutputCS', 'containsTransparency'] }

/** Reads a PDF into the objects of veraPDF's model. Throws when the file is no PDF at all. */
export async function buildModel(bytes: Uint8Array): Promise<ModelObject[]> {
  const doc = await PDFDocument.load(bytes, {
    ignoreEncryption: true,
    updateMetadata: false,
    throwOnInvalidObject: false,
  })
  const context = doc.context
  const v = new Values(context)
  const objects: [PDFRef, PDFObject][] = context.enumerateIndirectObjects()
  const byNumber = new Map(objects.map(([ref, obj]) => [ref.objectNumber, obj]))
  const raw = readRawFile(bytes, (n) => {
    const o = byNumber.get(n)
    return o instanceof PDFRawStream ? (v.number(o.dict, 'Length') ?? undefined) : undefined
  })
  const trailer = context.trailerInfo
  const trailerDict = PDFDict.withContext(context)
  for (const key of ['Root', 'Encrypt', 'Info', 'ID'] as const) {
    const value = trailer[key]
    if (value) trailerDict.set(context.obj(key), value as PDFObject)
  }
  const catalog = v.resolve(trailer.Root)
  const catalogDict = catalog instanceof PDFDict ? catalog : undefined

  const { pages, pageRefs } = pageLeaves(v, catalogDict)

  const out: ModelObject[] = []
  out.push(...cosDocument(raw, v, trailerDict, catalogDict, objects.length))
  for (const [ref, obj] of objects) cosObjects(ref, obj, raw, v, out)

  const use = pageUse(v, pages, pageRefs)
  const gOutputCS = outputColorSpace(v, catalogDict)
  const pageResources = pages.map((p) => {
    const r = inherited(v, p, 'Resources')
    return r instanceof PDFDict ? r : undefined
  })
  const graphics = graphicsObjects(v, use, pages, pageResources, gOutputCS)
  for (const o of documentObjects({
    v,
    catalog: catalogDict,
    trailer: trailerDict,
    pages,
    pageRefs,
    objects,
  })) {
    if (o.type === 'PDPage' && o.page) {
      o.props.gOutputCS = gOutputCS
      o.props.containsTransparency = graphics.transparentPages.has(o.page)
    }
    out.push(o)
  }
  out.push(...graphics.objects)
  const glyphs = glyphObjects(v, use, pageResources)
  out.push(...fontObjects(v, use, glyphs.renderingModes))
  out.push(...glyphs.objects)
  out.push(...markedContentObjects(v, use))
  const xmp = mainXmp(v, catalogDict)
  out.push(...xmpObjects(xmp))
  out.push(...xmpPropertyObjects(xmp))
  out.push(...xmpExtensionObjects(xmp))
  out.push(...structureObjects(v, catalogDict, pages))
  return out
}

/**
 * The page tree's leaves in order, walked from the catalog without pdf-lib's getPages(): that
 * one normalises leaves (copies inherited Resources onto them), which would hide what 6.2.2
 * checks. Bounded against cycles and hostile depth.
 */
function pageLeaves(
  v: Values,
  catalog: PDFDict | undefined,
): { pages: PDFDict[]; pageRefs: (PDFRef | undefined)[] } {
  const pages: PDFDict[] = []
  const pageRefs: (PDFRef | undefined)[] = []
  const seen = new Set<PDFDict>()
  const walk = (raw: PDFObject | undefined, depth: number) => {
    const node = v.resolve(raw)
    if (!(node instanceof PDFDict) || seen.has(node) || depth > 64 || pages.length > 100_000) return
    seen.add(node)
    const kids = v.array(node, 'Kids')
    if (v.name(node, 'Type') === 'Pages' || (kids && v.name(node, 'Type') !== 'Page')) {
      for (let i = 0; i < (kids?.size() ?? 0); i++) walk(kids?.get(i), depth + 1)
      return
    }
    pages.push(node)
    pageRefs.push(raw instanceof PDFRef ? raw : undefined)
  }
  walk(catalog?.get(PDFName.of('Pages')), 0)
  return { pages, pageRefs }
}
