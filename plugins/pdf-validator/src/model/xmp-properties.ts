import type { ModelObject, ModelTypes } from './model-object.ts'
import type { XmpPacket } from './xmp-rdf.ts'

// XMP properties against the schemas of XMP 2005 and the packet's extension schemas
// (ISO 19005-2 6.6.2.3): not yet modelled.

export const XMP_PROPERTY_TYPES: ModelTypes = {}

export function xmpPropertyObjects(_packet: XmpPacket | undefined): ModelObject[] {
  return []
}
