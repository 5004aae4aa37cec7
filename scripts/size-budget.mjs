// Measures the JavaScript and CSS the browser loads for `/` (the entry and its preloads), gzipped,
// and fails when it grows past the budget. Run after `npm run build`.
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

const BUDGET_JS_GZIP = 185 * 1024
const BUDGET_CSS_GZIP = 20 * 1024

const dist = new URL('../dist/client/', import.meta.url)
const html = readFileSync(new URL('index.html', dist), 'utf8')
const refs = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1])
const sizes = { js: 0, css: 0 }
for (const ref of new Set(refs)) {
  const gz = gzipSync(readFileSync(new URL(ref, dist)), { level: 9 }).length
  sizes[ref.endsWith('.css') ? 'css' : 'js'] += gz
  console.log(`${ref.padEnd(48)} ${(gz / 1024).toFixed(1)} KiB gzip`)
}
console.log(
  `first load of /: JS ${(sizes.js / 1024).toFixed(1)} KiB, CSS ${(sizes.css / 1024).toFixed(1)} KiB (gzip)`,
)
if (sizes.js > BUDGET_JS_GZIP || sizes.css > BUDGET_CSS_GZIP) {
  console.error(`over budget: JS ${BUDGET_JS_GZIP / 1024} KiB, CSS ${BUDGET_CSS_GZIP / 1024} KiB`)
  process.exit(1)
}
