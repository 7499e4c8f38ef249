/**
 * The UNTDID 1001 document types EN 16931's UBL binding writes as a CreditNote (credit notes
 * and their kinds); every other type code is an Invoice.
 */
const CREDIT_NOTE_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532'])

export const isCreditNote = (typeCode: string): boolean => CREDIT_NOTE_CODES.has(typeCode)
