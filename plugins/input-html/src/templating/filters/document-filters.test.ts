import { describe, expect, it } from 'vitest'
import { renderLiquid, renderLiquidWithWarnings } from '../index.ts'

// Intl separates amounts from units with a no-break space, so that they never wrap apart
const NBSP = '\u00a0'

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'rendered',
    (err: { code: unknown; detail: unknown; extras: unknown }) => ({
      code: err.code,
      detail: err.detail,
      extras: err.extras,
    }),
  )
}

describe('number filters', () => {
  it('format money with the currency and locale', async () => {
    const source = [
      "{{ 1234.5 | money: 'EUR', 'de-DE' }}",
      "{{ 1234.5 | money: 'usd' }}",
      "{{ 1234.5 | money: 'JPY', 'en-US' }}",
      "{{ -3 | money: 'CHF', 'de-CH' }}",
      "{{ '19.99' | money: 'GBP', 'en-GB' }}",
      "[{{ nil | money: 'EUR' }}{{ missing | money: 'EUR' }}]",
    ].join('|')
    expect(await renderLiquid(source, {})).toBe(`1.234,50${NBSP}€|$1,234.50|¥1,235|CHF-3.00|£19.99|[]`)
  })

  it('format decimal strings exactly, without a detour through floating point', async () => {
    // 0.1 + 0.2 as a float is 0.30000000000000004; money strings from an invoice stay exact
    expect(
      await renderLiquid("{{ amount | money: 'EUR', 'en-US' }}", { amount: '12345678901234567.89' }),
    ).toBe('€12,345,678,901,234,567.89')
  })

  it('format numbers with fraction digits, and percentages of ratios', async () => {
    const source = [
      "{{ 1234.5 | number_format: 'de-DE', 2 }}",
      "{{ 3.14159 | number_format: 'en-US', 0, 2 }}",
      "{{ 1234567.891 | number_format: 'en-IN' }}",
      "{{ 0.175 | percent: 'de-DE', 1 }}",
      '{{ 0.5 | percent }}',
    ].join('|')
    expect(await renderLiquid(source, {})).toBe(`1.234,50|3.14|12,34,567.891|17,5${NBSP}%|50%`)
  })

  it('reject what is not a number or not a currency, at the filter', async () => {
    expect(await failureOf(renderLiquid("<p>\n  {{ name | money: 'EUR' }}</p>", { name: 'abc' }))).toEqual({
      code: 'template_runtime_error',
      detail: 'money: "abc" is not a number (line 2, column 3)',
      extras: { line: 2, column: 3, excerpt: "  {{ name | money: 'EUR' }}</p>" },
    })
    expect(await failureOf(renderLiquid("{{ 1 | money: 'EURO' }}", {}))).toMatchObject({
      code: 'template_runtime_error',
      detail: 'money: the currency must be an ISO 4217 code such as "EUR" (line 1, column 1)',
    })
    expect(await failureOf(renderLiquid("{{ 1 | number_format: 'de-DE', 25 }}", {}))).toMatchObject({
      code: 'template_runtime_error',
      detail: 'number_format: fraction digits must be a whole number from 0 to 20 (line 1, column 1)',
    })
  })
})

describe('date filters', () => {
  const data = { issued: '2026-11-22T23:30:00Z' }

  it('format dates and times in a locale and time zone', async () => {
    const source = [
      "{{ issued | date_format: 'long', 'de-DE', 'Europe/Berlin' }}",
      "{{ issued | date_format: 'long', 'de-DE' }}",
      '{{ issued | date_format }}',
      "{{ issued | datetime_format: 'short', 'de-DE', 'Europe/Berlin' }}",
      "{{ 0 | date_format: 'full', 'fr-FR' }}",
    ].join('|')
    // the default zone is UTC, never the server's
    expect(await renderLiquid(source, data)).toBe(
      '23. November 2026|22. November 2026|Nov 22, 2026|23.11.26, 00:30|jeudi 1 janvier 1970',
    )
  })

  it('keep calendar days on their day and read times without an offset as UTC', async () => {
    const source = [
      "{{ '2026-11-22' | date_format: 'long', 'en-US', 'America/New_York' }}",
      "{{ '2026-11-22 10:00' | datetime_format: 'medium', 'en-GB', 'Asia/Tokyo' }}",
    ].join('|')
    expect(await renderLiquid(source, {})).toBe('November 22, 2026|22 Nov 2026, 19:00:00')
  })

  it("leave strftime patterns to Liquid's date, which takes a time zone too", async () => {
    const source =
      "{{ issued | date: '%d.%m.%Y %H:%M', 'Europe/Berlin' }}|{{ issued | date: '%B %-d, %Y %H:%M' }}"
    expect(await renderLiquid(source, data)).toBe('23.11.2026 00:30|November 22, 2026 23:30')
  })

  it('reject what is not a date, an unknown time zone and an unknown style', async () => {
    expect(await failureOf(renderLiquid("{{ 'soon' | date_format: 'long' }}", {}))).toMatchObject({
      code: 'template_runtime_error',
      detail: 'date_format: "soon" is not a date (line 1, column 1)',
    })
    expect(
      await failureOf(renderLiquid("{{ issued | date_format: 'long', 'en', 'Mars/Olympus' }}", data)),
    ).toMatchObject({
      code: 'template_runtime_error',
      detail: 'date_format: unknown time zone "Mars/Olympus" (line 1, column 1)',
    })
    expect(await failureOf(renderLiquid("{{ issued | datetime_format: 'huge' }}", data))).toMatchObject({
      code: 'template_runtime_error',
      detail: 'datetime_format: style must be one of short, medium, long, full (line 1, column 1)',
    })
  })
})

describe('text filters and Liquid standards', () => {
  it('pad, default and json', async () => {
    const source =
      "[{{ 42 | pad_start: 5, '0' }}][{{ 'ab' | pad_end: 4 }}][{{ 'abcdef' | pad_start: 3 }}]" +
      "[{{ nil | pad_end: 2, '-' }}][{{ missing | default: 'n/a' }}]{{ order | json }}"
    expect(await renderLiquid(source, { order: { lines: [1, 'x'] } })).toBe(
      '[00042][ab  ][abcdef][--][n/a]{"lines":[1,"x"]}',
    )
  })

  it('bound the padding width', async () => {
    expect(await failureOf(renderLiquid('{{ 1 | pad_start: 1000000 }}', {}))).toMatchObject({
      code: 'template_runtime_error',
      detail: 'pad_start: width must be a whole number from 0 to 100000 (line 1, column 1)',
    })
  })
})

describe('locales', () => {
  it('fall back to en-US with one locale_unsupported warning per locale', async () => {
    const source =
      "{% for i in (1..3) %}{{ i | money: 'EUR', 'xx-XX' }} {% endfor %}{{ 1 | number_format: 'de_DE', 1 }}"
    expect(await renderLiquidWithWarnings(source, {})).toEqual({
      output: '€1.00 €2.00 €3.00 1.0',
      warnings: [
        { code: 'locale_unsupported', message: 'Locale "xx-XX" is not supported; en-US was used.' },
        { code: 'locale_unsupported', message: 'Locale "de_DE" is not supported; en-US was used.' },
      ],
    })
  })

  it("take the render's locale when a filter names none, the filter's own when it does", async () => {
    const source =
      "{{ 1234.5 | money: 'EUR' }}|{{ d | date_format: 'long' }}|{{ 1234.5 | money: 'EUR', 'en-US' }}"
    const data = { d: '2026-11-22' }
    expect(await renderLiquidWithWarnings(source, data, { locale: 'de-DE' })).toEqual({
      output: `1.234,50${NBSP}€|22. November 2026|€1,234.50`,
      warnings: [],
    })
    expect(await renderLiquidWithWarnings(source, data, { locale: 'xx' })).toEqual({
      output: '€1,234.50|November 22, 2026|€1,234.50',
      warnings: [{ code: 'locale_unsupported', message: 'Locale "xx" is not supported; en-US was used.' }],
    })
  })

  it('raise no warning for supported locales, and none carried over from an earlier render', async () => {
    await renderLiquidWithWarnings("{{ 1 | money: 'EUR', 'zz' }}", {})
    expect(await renderLiquidWithWarnings("{{ 1 | money: 'EUR', 'fr-FR' }}", {})).toEqual({
      output: `1,00${NBSP}€`,
      warnings: [],
    })
  })
})
