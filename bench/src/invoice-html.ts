/** A two-page invoice: the document every render benchmark measures. */
export function invoiceHtml(): string {
  const rows = Array.from({ length: 48 }, (_, i) => {
    const qty = (i % 5) + 1
    const price = 12.5 + i * 3.25
    return `<tr><td>${i + 1}</td><td>Consulting services, work package ${i + 1}</td><td>${qty}</td><td>${price.toFixed(2)} EUR</td><td>${(qty * price).toFixed(2)} EUR</td></tr>`
  }).join('')
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body{font-family:DejaVu Sans,sans-serif;font-size:11pt;margin:0}
h1{font-size:20pt;margin:0 0 8mm}table{width:100%;border-collapse:collapse}
td,th{border-bottom:1px solid #ccc;padding:2.2mm 1mm;text-align:left}
.head{display:flex;justify-content:space-between;margin-bottom:10mm}
</style></head><body>
<div class="head"><div><h1>Invoice 2026-0042</h1><p>Acme GmbH<br>Hauptstrasse 1<br>10115 Berlin</p></div>
<div><p>Date: 2026-11-22<br>Due: 2026-12-22<br>Customer: C-1007</p></div></div>
<table><thead><tr><th>#</th><th>Item</th><th>Qty</th><th>Price</th><th>Total</th></tr></thead><tbody>${rows}</tbody></table>
<p style="margin-top:8mm">Thank you for your business. Payment by bank transfer to DE02 1203 0000 0000 2020 51.</p>
</body></html>`
}

export function cardHtml(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body{margin:0;width:1200px;height:630px;display:flex;align-items:center;justify-content:center;
background:linear-gradient(135deg,#1e3a8a,#9333ea);font-family:DejaVu Sans,sans-serif;color:white}
h1{font-size:64px;margin:0}p{font-size:28px}
</style></head><body><div><h1>docsvc benchmark card</h1><p>1200 x 630, rendered on request</p></div></body></html>`
}
