import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  add,
  compare,
  decimalText,
  divide,
  multiply,
  normalized,
  parseDecimal,
  round,
  subtract,
} from './decimal.ts'

const text = (v: string | number) => decimalText(parseDecimal(v))

describe('decimal', () => {
  it('keeps what was written: strings with every digit, numbers as their shortest text', () => {
    expect(text('19.90')).toBe('19.90')
    expect(text(0.1)).toBe('0.1')
    expect(text(1e-7)).toBe('0.0000001')
    expect(text(1e21)).toBe('1000000000000000000000')
    expect(text('-0.05')).toBe('-0.05')
    expect(() => parseDecimal('1,5')).toThrow(/not a decimal/)
    expect(() => parseDecimal(Number.NaN)).toThrow(/finite/)
  })

  it('adds where binary floating point does not: 0.1 + 0.2 = 0.3', () => {
    expect(decimalText(add(parseDecimal(0.1), parseDecimal(0.2)))).toBe('0.3')
    expect(decimalText(subtract(parseDecimal('10'), parseDecimal('0.01')))).toBe('9.99')
  })

  it('rounds half away from zero, as commercial rounding does', () => {
    expect(decimalText(round(parseDecimal('2.345'), 2))).toBe('2.35')
    expect(decimalText(round(parseDecimal('-2.345'), 2))).toBe('-2.35')
    expect(decimalText(round(parseDecimal('2.344'), 2))).toBe('2.34')
    expect(decimalText(round(parseDecimal('2.5'), 0))).toBe('3')
    expect(decimalText(round(parseDecimal('7'), 2))).toBe('7.00')
  })

  it('divides to a rounded number of places', () => {
    expect(decimalText(divide(parseDecimal('10'), parseDecimal('3'), 2))).toBe('3.33')
    expect(decimalText(divide(parseDecimal('20'), parseDecimal('3'), 2))).toBe('6.67')
    expect(decimalText(divide(parseDecimal('-1'), parseDecimal('8'), 2))).toBe('-0.13')
    expect(decimalText(divide(parseDecimal('1.5'), parseDecimal('0.25'), 0))).toBe('6')
    expect(() => divide(parseDecimal('1'), parseDecimal('0'), 2)).toThrow(/zero/)
  })

  it('agrees with integer arithmetic on cents for any amounts', () => {
    const cents = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n })
    fc.assert(
      fc.property(cents, cents, (a, b) => {
        const da = { units: a, scale: 2 }
        const db = { units: b, scale: 2 }
        expect(add(da, db).units).toBe(a + b)
        expect(multiply(da, db)).toEqual({ units: a * b, scale: 4 })
        expect(compare(da, db)).toBe(a < b ? -1 : a > b ? 1 : 0)
        expect(parseDecimal(decimalText(da))).toEqual(da)
        expect(compare(normalized(da), da)).toBe(0)
      }),
    )
  })
})
