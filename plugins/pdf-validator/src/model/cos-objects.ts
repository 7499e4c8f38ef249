import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRawStream,
  type PDFRef,
  PDFStream,
  PDFString,
} from '@cantoo/pdf-lib'
import type { ModelObject, ModelTypes } from './model-object.ts'
import { refLabel, type Values } from './pdf-values.ts'
import type { RawFile } from './raw-file.ts'

// The COS layer (ISO 19005-2 6.1): the file's bytes and every basic object in it.

export const COS_TYPES: ModelTypes = {
  CosDocument: {
    props: [
      'headerOffset',
      'header',
      'headerByte1',
      'headerByte2',
      'headerByte3',
      'headerByte4',
      'lastID',
      'postEOFDataSize',
      'nrIndirects',
      'NeedsRendering',
      'Requirements',
      'Marked',
      'Suspects',
      'DisplayDocTitle',
    ],
  },
  CosTrailer: { props: ['isEncrypted'] },
  CosXRef: { props: ['xrefEOLMarkersComplyPDFA'] },
  CosIndirect: { props: ['spacingCompliesPDFA'] },
  CosStream: {
    props: [
      'Length',
      'realLength',
      'streamKeywordCRLFCompliant',
      'endstreamKeywordEOLCompliant',
      'F',
      'FFilter',
      'FDecodeParms',
    ],
  },
  CosFilter: { props: ['internalRepresentation', 'decodeParms'] },
  CosString: { props: ['isHex', 'hexCount', 'containsOnlyHex', 'value'] },
  CosInteger: { props: ['intValue'] },
  CosReal: { props: ['realValue'] },
  CosName: { props: ['internalRepresentation'] },
  CosBM: { props: ['internalRepresentation'] },
  CosRenderingIntent: { props: ['internalRepresentation'] },
  CosBBox: { props: ['top', 'bottom', 'left', 'right'] },
}

const PAGE_BOXES = ['MediaBox', 'CropBox', 'BleedBox', 'TrimBox', 'ArtBox']

export function cosDocument(
  raw: RawFile,
  v: Values,
  trailer: PDFDict | undefined,
  catalog: PDFDict | undefined,
  nrIndirects: number,
): ModelObject[] {
  const [b1, b2, b3, b4] = raw.header.commentBytes
  const ids = trailer ? v.array(trailer, 'ID') : undefined
  const firstId = ids ? v.items(ids)[0] : undefined
  const lastID = firstId instanceof PDFHexString || firstId instanceof PDFString ? firstId.asString() : null
  const markInfo = v.dict(catalog, 'MarkInfo')
  const viewer = v.dict(catalog, 'ViewerPreferences')
  const out: ModelObject[] = [
    {
      type: 'CosDocument',
      context: 'document',
      props: {
        headerOffset: raw.header.offset,
        header: raw.header.line,
        headerByte1: b1,
        headerByte2: b2,
        headerByte3: b3,
        headerByte4: b4,
        lastID,
        postEOFDataSize: raw.postEOFDataSize,
        nrIndirects,
        NeedsRendering: v.bool(catalog, 'NeedsRendering') ?? false,
        Requirements: v.has(catalog, 'Requirements') ? 'present' : null,
        Marked: v.bool(markInfo, 'Marked'),
        Suspects: v.bool(markInfo, 'Suspects'),
        DisplayDocTitle: v.bool(viewer, 'DisplayDocTitle'),
      },
    },
    { type: 'CosTrailer', context: 'trailer', props: { isEncrypted: v.has(trailer, 'Encrypt') } },
  ]
  for (const x of raw.xrefSections) {
    out.push({
      type: 'CosXRef',
      context: `xref at byte ${x.offset}`,
      props: { xrefEOLMarkersComplyPDFA: x.eolMarkersComply },
    })
  }
  for (const ind of raw.indirects.values()) {
    out.push({
      type: 'CosIndirect',
      context: `${ind.number} ${ind.generation} obj`,
      props: { spacingCompliesPDFA: ind.spacingComplies },
    })
  }
  return out
}

/** Every basic object inside one indirect object (its dictionaries and arrays walked). */
export function cosObjects(ref: PDFRef, obj: PDFObject, raw: RawFile, v: Values, out: ModelObject[]): void {
  const context = refLabel(ref)
  const walk = (o: PDFObject, key: string | undefined, depth: number) => {
    if (depth > 64) return
    if (o instanceof PDFHexString || o instanceof PDFString) {
      out.push(cosString(o, context))
    } else if (o instanceof PDFNumber) {
      const n = o.asNumber()
      out.push(
        Number.isInteger(n)
          ? { type: 'CosInteger', context, props: { intValue: n } }
          : { type: 'CosReal', context, props: { realValue: n } },
      )
    } else if (o instanceof PDFName) {
      const name = o.decodeText()
      out.push({ type: 'CosName', context, props: { internalRepresentation: name } })
      if (key === 'BM') out.push({ type: 'CosBM', context, props: { internalRepresentation: name } })
      if (key === 'RI' || key === 'Intent') {
        out.push({ type: 'CosRenderingIntent', context, props: { internalRepresentation: name } })
      }
    } else if (o instanceof PDFArray) {
      if (key && PAGE_BOXES.includes(key)) out.push(cosBBox(o, `${context} /${key}`))
      for (let i = 0; i < o.size(); i++) walk(o.get(i), key === 'BM' ? 'BM' : undefined, depth + 1)
    } else if (o instanceof PDFDict) {
      for (const [k, val] of o.entries()) {
        walk(k, undefined, depth + 1)
        walk(val, k.decodeText(), depth + 1)
      }
    } else if (o instanceof PDFStream) {
      walk(o.dict, undefined, depth + 1)
    }
  }
  walk(obj, undefined, 0)
  if (obj instanceof PDFRawStream) out.push(...cosStream(ref, obj, raw, v))
}

function cosString(s: PDFString | PDFHexString, context: string): ModelObject {
  if (s instanceof PDFHexString) return hexString(s.asString(), context)
  return {
    type: 'CosString',
    context,
    props: { isHex: false, hexCount: 0, containsOnlyHex: true, value: s.asString() },
  }
}

/** A hexadecimal string as written (between < and >), in an object or a content stream. */
export function hexString(written: string, context: string, page?: number): ModelObject {
  const digits = written.replace(/[\0\t\n\f\r ]/g, '')
  return {
    type: 'CosString',
    context,
    ...(page ? { page } : {}),
    props: {
      isHex: true,
      hexCount: digits.length,
      containsOnlyHex: /^[0-9A-Fa-f]*$/.test(digits),
      value: Buffer.from(digits.replace(/[^0-9A-Fa-f]/g, ''), 'hex').toString('latin1'),
    },
  }
}

function cosBBox(arr: PDFArray, context: string): ModelObject {
  const n = (i: number) => {
    const x = arr.get(i)
    return x instanceof PDFNumber ? x.asNumber() : 0
  }
  return { type: 'CosBBox', context, props: { left: n(0), bottom: n(1), right: n(2), top: n(3) } }
}

function cosStream(ref: PDFRef, stream: PDFRawStream, raw: RawFile, v: Values): ModelObject[] {
  const context = `${refLabel(ref)} stream`
  const out: ModelObject[] = []
  const rawInfo = raw.indirects.get(ref.objectNumber)?.stream
  const dict = stream.dict
  if (rawInfo) {
    out.push({
      type: 'CosStream',
      context,
      props: {
        Length: v.number(dict, 'Length'),
        realLength: rawInfo.realLength,
        streamKeywordCRLFCompliant: rawInfo.streamKeywordCRLFCompliant,
        endstreamKeywordEOLCompliant: rawInfo.endstreamKeywordEOLCompliant,
        F: v.has(dict, 'F') ? 'present' : null,
        FFilter: v.has(dict, 'FFilter') ? 'present' : null,
        FDecodeParms: v.has(dict, 'FDecodeParms') ? 'present' : null,
      },
    })
  }
  const parms = v.get(dict, 'DecodeParms')
  const parmsList = parms instanceof PDFArray ? v.items(parms) : parms ? [parms] : []
  for (const [i, filter] of v.names(dict, 'Filter').entries()) {
    const p = parmsList[i]
    const cryptName = p instanceof PDFDict ? v.name(p, 'Name') : null
    out.push({
      type: 'CosFilter',
      context: `${context} /Filter ${filter}`,
      props: {
        internalRepresentation: filter,
        decodeParms: cryptName ?? (filter === 'Crypt' ? 'Identity' : null),
      },
    })
  }
  return out
}
