import { PDFArray, PDFDict, PDFName, type PDFObject, PDFRawStream } from '@cantoo/pdf-lib'
import { isName, type Operand, PDF_OPERATORS } from './content-stream.ts'
import { hexString } from './cos-objects.ts'
import { iccHeader } from './document-objects.ts'
import { readJp2Header } from './jpeg2000.ts'
import { containsMcid } from './marked-content.ts'
import type { ModelObject, ModelTypes } from './model-object.ts'
import type { PageUse } from './page-resources.ts'
import { refLabel, type Values } from './pdf-values.ts'

// Graphics (ISO 19005-2 6.2.2 to 6.2.10): graphics states, halftones, images, forms, colour
// spaces and what the content streams draw with (device colour, undefined operators, resources
// a stream borrows from its page, transparency).

export const GRAPHICS_TYPES: ModelTypes = {
  PDExtGState: { props: ['containsTR', 'containsTR2', 'TR2NameValue', 'containsHTP'] },
  PDHalftone: { props: ['HalftoneType', 'HalftoneName', 'colorantName', 'TransferFunction'] },
  PDXObject: { props: ['Subtype'] },
  PDXImage: {
    parent: 'PDXObject',
    props: ['containsAlternates', 'containsOPI', 'Interpolate', 'isMask', 'BitsPerComponent'],
  },
  PDXForm: {
    parent: 'PDXObject',
    props: ['Subtype2', 'containsPS', 'containsOPI', 'containsRef', 'isUniqueSemanticParent'],
  },
  PDDeviceN: { props: ['nrComponents', 'areColorantsPresent'] },
  PDSeparation: { props: ['areTintAndAlternateConsistent'] },
  PDDeviceRGB: { props: ['gOutputCS'] },
  PDDeviceCMYK: { props: ['gOutputCS'] },
  PDDeviceGray: { props: ['gOutputCS'] },
  Op_Undefined: { props: [] },
  Op_q_gsave: { props: ['nestingLevel'] },
  PDContentStream: { props: ['inheritedResourceNames'] },
  PDICCBasedCMYK: { props: ['overprintFlag', 'OPM'] },
  JPEG2000: {
    props: [
      'hasColorSpace',
      'nrColorChannels',
      'nrColorSpaceSpecs',
      'nrColorSpacesWithApproxField',
      'colrMethod',
      'colrEnumCS',
      'bpccBoxPresent',
      'bitDepth',
    ],
  },
}

const PROCESS = new Set(['None', 'All', 'Cyan', 'Magenta', 'Yellow', 'Black'])
const TRANSPARENT_BLEND = (bm: string) => bm !== 'Normal' && bm !== 'Compatible'

export interface GraphicsResult {
  objects: ModelObject[]
  /** pages whose drawing uses transparency */
  transparentPages: Set<number>
}

export function graphicsObjects(
  v: Values,
  use: PageUse,
  pages: readonly PDFDict[],
  pageResources: (PDFDict | undefined)[],
  gOutputCS: string | null,
): GraphicsResult {
  const out: ModelObject[] = []
  const transparentPages = new Set<number>()
  const separations = new Map<string, string>()
  const device = new Map<string, Set<number>>()

  const noteDevice = (name: string, page: number, defaults: PDFDict | undefined) => {
    const family =
      name === 'RGB' ? 'DeviceRGB' : name === 'CMYK' ? 'DeviceCMYK' : name === 'G' ? 'DeviceGray' : name
    if (!['DeviceRGB', 'DeviceCMYK', 'DeviceGray'].includes(family)) return
    // a Default colour space in the resources stands in for the device one (ISO 32000-1 8.6.5.6)
    if (defaults && v.has(defaults, `Default${family.slice(6)}`)) return
    const pages = device.get(family) ?? new Set<number>()
    pages.add(page)
    device.set(family, pages)
  }

  const visitColorSpace = (
    cs: PDFObject | undefined,
    page: number,
    defaults: PDFDict | undefined,
    depth = 0,
  ): void => {
    if (!cs || depth > 8) return
    if (cs instanceof PDFName) {
      noteDevice(cs.decodeText(), page, defaults)
      return
    }
    if (!(cs instanceof PDFArray)) return
    const items = v.items(cs)
    const family = items[0] instanceof PDFName ? items[0].decodeText() : ''
    if (family === 'Indexed' || family === 'I') visitColorSpace(items[1], page, defaults, depth + 1)
    else if (family === 'Pattern' && items[1]) visitColorSpace(items[1], page, defaults, depth + 1)
    else if (family === 'DeviceN') out.push(deviceN(v, items, page))
    else if (family === 'Separation') {
      const name = items[1] instanceof PDFName ? items[1].decodeText() : '?'
      const key = `${cs.get(2)?.toString()}|${cs.get(3)?.toString()}`
      const known = separations.get(name)
      if (known === undefined) separations.set(name, key)
      out.push({
        type: 'PDSeparation',
        page,
        context: `page ${page} Separation /${name}`,
        props: { areTintAndAlternateConsistent: known === undefined || known === key },
      })
    } else if (family === 'ICCBased') {
      const stream = items[1]
      const header = stream instanceof PDFRawStream ? iccHeader(v, stream) : undefined
      out.push({
        type: 'ICCInputProfile',
        page,
        context: `page ${page} ICCBased ${refLabel(undefined)}`,
        props: header ?? { deviceClass: null, colorSpace: null, version: null },
      })
    }
  }

  for (const g of use.extGStates) {
    const d = g.obj
    const tr2 = v.get(d, 'TR2')
    out.push({
      type: 'PDExtGState',
      page: g.page,
      context: `${refLabel(g.ref)} ExtGState /${g.name}`,
      props: {
        containsTR: v.has(d, 'TR'),
        containsTR2: v.has(d, 'TR2'),
        TR2NameValue: tr2 instanceof PDFName ? tr2.decodeText() : null,
        containsHTP: v.has(d, 'HTP'),
      },
    })
    const ht = v.get(d, 'HT')
    const halftones = ht instanceof PDFDict ? [[ht, null] as const] : []
    for (const [h, colorant] of halftones) {
      out.push(halftone(v, h, colorant, g.page))
      if (v.number(h, 'HalftoneType') === 5) {
        for (const [k, sub] of h.entries()) {
          const s = v.resolve(sub)
          if (s instanceof PDFDict) out.push(halftone(v, s, k.decodeText(), g.page))
        }
      }
    }
    const smask = v.get(d, 'SMask')
    const ca = [v.number(d, 'CA'), v.number(d, 'ca')]
    if (
      (smask && !(smask instanceof PDFName && smask.decodeText() === 'None')) ||
      ca.some((x) => x !== null && x < 1) ||
      v.names(d, 'BM').some(TRANSPARENT_BLEND)
    ) {
      transparentPages.add(g.page)
    }
  }

  const scoped = (u: { scope?: PDFDict | undefined }) => v.dict(u.scope, 'ColorSpace')

  for (const x of use.xobjects) {
    const d = x.obj.dict
    const subtype = v.name(d, 'Subtype')
    const context = `${refLabel(x.ref)} XObject /${x.name}`
    if (subtype === 'Image') {
      const isMask = v.bool(d, 'ImageMask') === true
      out.push({
        type: 'PDXImage',
        page: x.page,
        context,
        props: {
          Subtype: subtype,
          containsAlternates: v.has(d, 'Alternates'),
          containsOPI: v.has(d, 'OPI'),
          Interpolate: v.bool(d, 'Interpolate') ?? false,
          isMask,
          BitsPerComponent: v.number(d, 'BitsPerComponent'),
        },
      })
      if (v.names(d, 'Filter').at(-1) === 'JPXDecode' && v.names(d, 'Filter').length === 1) {
        out.push({
          type: 'JPEG2000',
          page: x.page,
          context: `${context} JPEG 2000`,
          props: { hasColorSpace: v.has(d, 'ColorSpace'), ...readJp2Header(x.obj.getContents()) },
        })
      }
      if (v.get(d, 'SMask') instanceof PDFRawStream || (v.number(d, 'SMaskInData') ?? 0) > 0)
        transparentPages.add(x.page)
      if (!isMask && !x.name.endsWith(' SMask')) visitColorSpace(v.get(d, 'ColorSpace'), x.page, scoped(x))
    } else if (subtype === 'Form') {
      out.push({
        type: 'PDXForm',
        page: x.page,
        context,
        props: {
          Subtype: subtype,
          Subtype2: v.name(d, 'Subtype2'),
          containsPS: v.has(d, 'PS'),
          containsOPI: v.has(d, 'OPI'),
          containsRef: v.has(d, 'Ref'),
          // content with MCIDs belongs to one place in the structure tree: a form holding such
          // content may be painted once only (ISO 14289-1 7.20, ISO 32000-1 14.7.2)
          isUniqueSemanticParent: !(
            (use.timesDrawn.get(x.obj) ?? 0) > 1 &&
            use.contents.some((c) => c.stream === x.obj && containsMcid(v, c))
          ),
        },
      })
      const group = v.dict(d, 'Group')
      if (v.name(group, 'S') === 'Transparency') {
        transparentPages.add(x.page)
        // the group's blending colour space is a colour space the form uses
        visitColorSpace(v.get(group, 'CS'), x.page, scoped(x))
      }
    } else {
      out.push({ type: 'PDXObject', page: x.page, context, props: { Subtype: subtype } })
    }
  }

  for (const c of use.contents) {
    const own = c.resources
    const pageRes = pageResources[c.page - 1]
    // Default colour spaces come from the stream's own resources (a pattern or form does not
    // see its page's); a page's may come from the page tree
    const defaults = v.dict(c.isPage ? pageRes : own, 'ColorSpace')
    // overprint of the graphics state (ExtGState OP, op, OPM), saved and restored by q/Q
    let overprint = { OP: false, op: false, OPM: 0, fillCmyk: '', strokeCmyk: '' }
    const saved: (typeof overprint)[] = []
    const borrowed = new Set<string>()
    let depth = 0
    const context = `${refLabel(c.ref)} content`
    const checkName = (category: string, operand: Operand | undefined) => {
      if (!isName(operand)) return
      const mine = v.dict(own, category)
      if (mine && v.has(mine, operand.name)) return
      if (v.has(v.dict(pageRes, category), operand.name)) borrowed.add(operand.name)
    }
    for (const { op, operands } of c.ops) {
      if (!PDF_OPERATORS.has(op)) {
        out.push({ type: 'Op_Undefined', page: c.page, context: `${context} operator ${op}`, props: {} })
        continue
      }
      switch (op) {
        case 'q':
          saved.push(overprint)
          depth++
          out.push({
            type: 'Op_q_gsave',
            page: c.page,
            context: `${context} q`,
            props: { nestingLevel: depth },
          })
          break
        case 'Q':
          overprint = saved.pop() ?? overprint
          depth = Math.max(0, depth - 1)
          break
        case 'g':
        case 'G':
        case 'rg':
        case 'RG':
        case 'k':
        case 'K': {
          const lower = op.toLowerCase()
          noteDevice(
            lower === 'g' ? 'DeviceGray' : lower === 'rg' ? 'DeviceRGB' : 'DeviceCMYK',
            c.page,
            defaults,
          )
          // a device colour replaces the colour space of fill (lower case) or stroke
          overprint = op === lower ? { ...overprint, fillCmyk: '' } : { ...overprint, strokeCmyk: '' }
          break
        }
        case 'cs':
        case 'CS': {
          const n = operands[0]
          if (!isName(n)) break
          if (n.name.startsWith('Device')) {
            noteDevice(n.name, c.page, defaults)
            overprint = op === 'CS' ? { ...overprint, strokeCmyk: '' } : { ...overprint, fillCmyk: '' }
          } else {
            checkName('ColorSpace', n)
            const cs =
              v.get(v.dict(own, 'ColorSpace'), n.name) ?? v.get(v.dict(pageRes, 'ColorSpace'), n.name)
            const cmyk = isIccCmyk(v, cs) ? n.name : ''
            overprint = op === 'CS' ? { ...overprint, strokeCmyk: cmyk } : { ...overprint, fillCmyk: cmyk }
          }
          break
        }
        case 'Tf':
          checkName('Font', operands[0])
          break
        case 'Do':
          checkName('XObject', operands[0])
          break
        case 'gs': {
          checkName('ExtGState', operands[0])
          const n = operands[0]
          const g = isName(n)
            ? (v.dict(v.dict(own, 'ExtGState'), n.name) ?? v.dict(v.dict(pageRes, 'ExtGState'), n.name))
            : undefined
          if (g) {
            const OP = v.bool(g, 'OP')
            const fill = v.bool(g, 'op')
            overprint = {
              ...overprint,
              OP: OP ?? overprint.OP,
              // op defaults to OP when only OP is given (ISO 32000-1 Table 58)
              op: fill ?? OP ?? overprint.op,
              OPM: v.number(g, 'OPM') ?? overprint.OPM,
            }
          }
          break
        }
        case 'f':
        case 'F':
        case 'f*':
        case 'S':
        case 's':
        case 'B':
        case 'B*':
        case 'b':
        case 'b*': {
          // overprint matters where an ICCBased CMYK colour is painted (ISO 19005-2 6.2.4.2)
          const fills = op !== 'S' && op !== 's'
          const strokes = op === 'S' || op === 's' || op.startsWith('B') || op.startsWith('b')
          for (const [paints, space, flag] of [
            [fills, overprint.fillCmyk, overprint.op],
            [strokes, overprint.strokeCmyk, overprint.OP],
          ] as const) {
            if (!paints || !space) continue
            out.push({
              type: 'PDICCBasedCMYK',
              page: c.page,
              context: `${context} ICCBased CMYK /${space}`,
              props: { overprintFlag: flag, OPM: overprint.OPM },
            })
          }
          break
        }
        case 'ri': {
          const n = operands[0]
          if (isName(n))
            out.push({
              type: 'CosRenderingIntent',
              page: c.page,
              context: `${context} ri`,
              props: { internalRepresentation: n.name },
            })
          break
        }
        case 'sh':
          checkName('Shading', operands[0])
          break
        case 'BI': {
          const dict = (operands[0] as { dict: Record<string, Operand> }).dict
          const cs = dict.CS ?? dict.ColorSpace
          if (isName(cs)) {
            if (['RGB', 'CMYK', 'G', 'DeviceRGB', 'DeviceCMYK', 'DeviceGray'].includes(cs.name))
              noteDevice(cs.name, c.page, defaults)
          }
          const interpolate = dict.I ?? dict.Interpolate
          const bpc = dict.BPC ?? dict.BitsPerComponent
          const mask = dict.IM ?? dict.ImageMask
          out.push({
            type: 'PDXImage',
            page: c.page,
            context: `${context} inline image`,
            props: {
              Subtype: 'Image',
              containsAlternates: false,
              containsOPI: false,
              Interpolate: interpolate === true,
              isMask: mask === true,
              BitsPerComponent: typeof bpc === 'number' ? bpc : null,
            },
          })
          break
        }
      }
    }
    out.push({
      type: 'PDContentStream',
      page: c.page,
      context,
      props: { inheritedResourceNames: [...borrowed].join('&') },
    })
    for (const hex of c.hexStrings) out.push(hexString(hex, `${context} string`, c.page))
  }

  // a page's transparency group blends in its colour space: a colour space the page uses
  for (const [i, page] of pages.entries()) {
    visitColorSpace(v.get(v.dict(page, 'Group'), 'CS'), i + 1, v.dict(pageResources[i], 'ColorSpace'))
  }
  for (const s of use.colorSpaces) visitColorSpace(s.obj, s.page, scoped(s))
  for (const s of use.shadings) visitColorSpace(v.get(s.obj, 'ColorSpace'), s.page, scoped(s))

  for (const [family, pages] of device) {
    for (const page of pages)
      out.push({ type: `PD${family}`, page, context: `page ${page} ${family}`, props: { gOutputCS } })
  }
  return { objects: out, transparentPages }
}

function halftone(v: Values, h: PDFDict, colorant: string | null, page: number): ModelObject {
  return {
    type: 'PDHalftone',
    page,
    context: `page ${page} halftone${colorant ? ` /${colorant}` : ''}`,
    props: {
      HalftoneType: v.number(h, 'HalftoneType'),
      HalftoneName: v.text(h, 'HalftoneName') ?? v.name(h, 'HalftoneName'),
      colorantName: colorant,
      TransferFunction: v.has(h, 'TransferFunction') ? 'present' : null,
    },
  }
}

function deviceN(v: Values, items: PDFObject[], page: number): ModelObject {
  const names =
    items[1] instanceof PDFArray
      ? v.items(items[1]).map((n) => (n instanceof PDFName ? n.decodeText() : ''))
      : []
  const attrs = items[4] instanceof PDFDict ? items[4] : undefined
  const colorants = v.dict(attrs, 'Colorants')
  const process = new Set(
    v
      .items(v.array(v.dict(attrs, 'Process'), 'Components'))
      .map((n) => (n instanceof PDFName ? n.decodeText() : '')),
  )
  const spots = names.filter((n) => !PROCESS.has(n) && !process.has(n))
  return {
    type: 'PDDeviceN',
    page,
    context: `page ${page} DeviceN [${names.join(' ')}]`,
    props: {
      nrComponents: names.length,
      areColorantsPresent: spots.every((n) => colorants !== undefined && v.has(colorants, n)),
    },
  }
}

/** An ICCBased colour space with four components (CMYK). */
function isIccCmyk(v: Values, cs: PDFObject | undefined): boolean {
  if (!(cs instanceof PDFArray)) return false
  const [family, stream] = v.items(cs)
  return (
    family instanceof PDFName &&
    family.decodeText() === 'ICCBased' &&
    stream instanceof PDFRawStream &&
    v.number(stream.dict, 'N') === 4
  )
}
