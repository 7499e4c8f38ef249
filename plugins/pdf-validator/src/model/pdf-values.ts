import {
  decodePDFRawStream,
  PDFArray,
  PDFBool,
  type PDFContext,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
} from '@cantoo/pdf-lib'

// Typed reads of pdf-lib values with references resolved: what a missing or wrongly typed entry
// is becomes null, as veraPDF's model gives null for an absent property.

export class Values {
  readonly context: PDFContext
  constructor(context: PDFContext) {
    this.context = context
  }

  resolve(obj: PDFObject | undefined): PDFObject | undefined {
    let o = obj
    for (let i = 0; i < 32 && o instanceof PDFRef; i++) o = this.context.lookup(o)
    return o instanceof PDFRef ? undefined : o
  }

  get(dict: PDFDict | undefined, key: string): PDFObject | undefined {
    return dict ? this.resolve(dict.get(PDFName.of(key))) : undefined
  }

  has(dict: PDFDict | undefined, key: string): boolean {
    return dict?.has(PDFName.of(key)) ?? false
  }

  dict(dict: PDFDict | undefined, key: string): PDFDict | undefined {
    const v = this.get(dict, key)
    if (v instanceof PDFDict) return v
    if (v instanceof PDFStream) return v.dict
    return undefined
  }

  stream(dict: PDFDict | undefined, key: string): PDFRawStream | undefined {
    const v = this.get(dict, key)
    return v instanceof PDFRawStream ? v : undefined
  }

  array(dict: PDFDict | undefined, key: string): PDFArray | undefined {
    const v = this.get(dict, key)
    return v instanceof PDFArray ? v : undefined
  }

  name(dict: PDFDict | undefined, key: string): string | null {
    return nameOf(this.get(dict, key))
  }

  number(dict: PDFDict | undefined, key: string): number | null {
    const v = this.get(dict, key)
    return v instanceof PDFNumber ? v.asNumber() : null
  }

  bool(dict: PDFDict | undefined, key: string): boolean | null {
    const v = this.get(dict, key)
    return v instanceof PDFBool ? v.asBoolean() : null
  }

  text(dict: PDFDict | undefined, key: string): string | null {
    return textOf(this.get(dict, key))
  }

  items(arr: PDFArray | undefined): PDFObject[] {
    if (!arr) return []
    const out: PDFObject[] = []
    for (let i = 0; i < arr.size(); i++) {
      const v = this.resolve(arr.get(i))
      if (v) out.push(v)
    }
    return out
  }

  /** a dict entry that may be one name or an array of names (Filter, BM) */
  names(dict: PDFDict | undefined, key: string): string[] {
    const v = this.get(dict, key)
    if (v instanceof PDFArray)
      return this.items(v)
        .map(nameOf)
        .filter((n): n is string => n !== null)
    const n = nameOf(v)
    return n === null ? [] : [n]
  }

  /** a stream's decoded bytes, or undefined when its filters cannot be undone */
  decoded(stream: PDFRawStream): Uint8Array | undefined {
    try {
      return decodePDFRawStream(stream).decode()
    } catch {
      return undefined
    }
  }
}

export function nameOf(v: PDFObject | undefined): string | null {
  return v instanceof PDFName ? v.decodeText() : null
}

export function textOf(v: PDFObject | undefined): string | null {
  if (v instanceof PDFString || v instanceof PDFHexString) return v.decodeText()
  return null
}

export function refLabel(ref: PDFRef | undefined): string {
  return ref ? `${ref.objectNumber} ${ref.generationNumber} obj` : 'direct object'
}
