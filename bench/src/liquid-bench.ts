// node bench/src/liquid-bench.ts: the template step of an invoice render, Liquid from JSON data:
// through the killable worker pool (what renders use) next to plain in-process liquidjs with the
// same engine and filters, in the same run. Figures, not a test.
import { cpus, loadavg } from 'node:os'
import {
  createLiquidEngine,
  DEFAULT_LIQUID_LIMITS,
  renderLiquid,
  stopLiquidWorkers,
  warmLiquidWorkers,
} from '@docsvc/input-html/templating'
import { measure, type RunStats } from './stats.ts'

const RENDERS = Number(process.env.BENCH_RENDERS ?? 2_000)
const WARMUP = 200
const ROUNDS = 5

/** The invoice of invoice-html.ts as a Liquid template: header fields and line items from data. */
const INVOICE_TEMPLATE = `<!doctype html><html><head><meta charset="utf-8"><style>
body{font-family:DejaVu Sans,sans-serif;font-size:11pt;margin:0}
h1{font-size:20pt;margin:0 0 8mm}table{width:100%;border-collapse:collapse}
td,th{border-bottom:1px solid #ccc;padding:2.2mm 1mm;text-align:left}
.head{display:flex;justify-content:space-between;margin-bottom:10mm}
</style></head><body>
<div class="head"><div><h1>Invoice {{ invoice.number }}</h1><p>{{ seller.name }}<br>{{ seller.street }}<br>{{ seller.city }}</p></div>
<div><p>Date: {{ invoice.issued | date_format: 'medium', locale, 'Europe/Berlin' }}<br>Due: {{ invoice.due | date_format: 'medium', locale }}<br>Customer: {{ customer.id }}</p></div></div>
<table><thead><tr><th>#</th><th>Item</th><th>Qty</th><th>Price</th><th>Total</th></tr></thead><tbody>
{%- for line in lines %}<tr><td>{{ forloop.index }}</td><td>{{ line.text | escape }}</td><td>{{ line.qty }}</td><td>{{ line.price | money: currency, locale }}</td><td>{{ line.price | times: line.qty | money: currency, locale }}</td></tr>{% endfor -%}
</tbody></table>
<p>Total: {{ total | money: currency, locale }}</p>
<p style="margin-top:8mm">{{ note | default: 'Thank you for your business.' }} Payment by bank transfer to {{ seller.iban }}.</p>
</body></html>`

function invoiceData(): Record<string, unknown> {
  const lines = Array.from({ length: 48 }, (_, i) => ({
    text: `Consulting services, work package ${i + 1}`,
    qty: (i % 5) + 1,
    price: 12.5 + i * 3.25,
  }))
  return {
    locale: 'de-DE',
    currency: 'EUR',
    invoice: { number: '2026-0042', issued: '2026-11-22T09:30:00Z', due: '2026-12-22' },
    seller: {
      name: 'Acme GmbH',
      street: 'Hauptstrasse 1',
      city: '10115 Berlin',
      iban: 'DE02 1203 0000 0000 2020 51',
    },
    customer: { id: 'C-1007' },
    lines,
    total: lines.reduce((sum, line) => sum + line.qty * line.price, 0),
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

function row(label: string, rounds: RunStats[]): string {
  const f = (n: number) => n.toFixed(3).padStart(7)
  const p50 = median(rounds.map((r) => r.p50))
  const p95 = median(rounds.map((r) => r.p95))
  const perSecond = median(rounds.map((r) => r.perSecond))
  return `| ${label} | ${f(p50)} | ${f(p95)} | ${perSecond.toFixed(0)} |`
}

async function main(): Promise<void> {
  const data = invoiceData()
  const engine = createLiquidEngine({}, DEFAULT_LIQUID_LIMITS.parseChars)
  const parsed = engine.parse(INVOICE_TEMPLATE)
  const renderOptions = {
    renderLimit: DEFAULT_LIQUID_LIMITS.renderMs,
    memoryLimit: DEFAULT_LIQUID_LIMITS.memory,
  }

  warmLiquidWorkers()
  const isolated = await renderLiquid(INVOICE_TEMPLATE, data)
  if (isolated !== engine.renderSync(parsed, data, renderOptions)) throw new Error('outputs differ')

  const cases: Array<[string, number, () => Promise<void>]> = [
    ['worker pool (isolated), 1 in flight', 1, async () => void (await renderLiquid(INVOICE_TEMPLATE, data))],
    ['worker pool (isolated), 2 in flight', 2, async () => void (await renderLiquid(INVOICE_TEMPLATE, data))],
    [
      'in-process, parse + render each time (the former path)',
      1,
      async () => void (await engine.parseAndRender(INVOICE_TEMPLATE, data, renderOptions)),
    ],
    [
      'in-process, parsed once, renderSync',
      1,
      async () => void engine.renderSync(parsed, data, renderOptions),
    ],
    // the isolation's own cost: a template that does next to nothing, with the same data
    ['worker pool round trip alone ({{ n }})', 1, async () => void (await renderLiquid('{{ n }}', data))],
  ]
  for (const [, concurrency, task] of cases) await measure(WARMUP, concurrency, task)
  // the cases take turns, so that a neighbour's load on a shared machine falls on all of them
  const rounds = new Map<string, RunStats[]>()
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, concurrency, task] of cases) {
      const stats = await measure(Math.ceil(RENDERS / ROUNDS), concurrency, task)
      rounds.set(label, [...(rounds.get(label) ?? []), stats])
    }
  }
  console.log(
    `Liquid invoice template: 48 line items, ${isolated.length} characters out; ${RENDERS} renders per case ` +
      `in ${ROUNDS} alternating rounds (median of the rounds' figures), ${cpus().length} CPUs, load ${loadavg()[0]?.toFixed(1)}`,
  )
  console.log('\n| template step | p50 ms | p95 ms | renders/s |\n|---|---:|---:|---:|')
  for (const [label] of cases) console.log(row(label, rounds.get(label) ?? []))
  await stopLiquidWorkers()
}

await main()
