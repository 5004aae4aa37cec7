// Measures the JavaScript and CSS the browser loads for `/` (the entry and its preloads), gzipped,
// and fails when it grows past the budget. Run after `npm run build`. It also prints the brotli
// files the build wrote, which is what a browser that accepts br receives.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

const BUDGET_JS_GZIP = 185 * 1024
const BUDGET_CSS_GZIP = 20 * 1024

const dist = new URL('../dist/client/', import.meta.url)
const html = readFileSync(new URL('index.html', dist), 'utf8')
const refs = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1])
const sizes = { js: 0, css: 0 }
const brotli = { js: 0, css: 0 }
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`
for (const ref of new Set(refs)) {
  const kind = ref.endsWith('.css') ? 'css' : 'js'
  const source = readFileSync(new URL(ref, dist))
  const gz = gzipSync(source, { level: 9 }).length
  // A file the build left uncompressed (under 1 KiB) is sent as it is.
  const brFile = new URL(`${ref}.br`, dist)
  const br = existsSync(brFile) ? statSync(brFile).size : source.length
  sizes[kind] += gz
  brotli[kind] += br
  console.log(`${ref.padEnd(48)} ${kib(gz)} gzip, ${kib(br)} brotli`)
}
console.log(`first load of /: JS ${kib(sizes.js)}, CSS ${kib(sizes.css)} (gzip)`)
console.log(`as sent with brotli: JS ${kib(brotli.js)}, CSS ${kib(brotli.css)}`)
if (sizes.js > BUDGET_JS_GZIP || sizes.css > BUDGET_CSS_GZIP) {
  console.error(`over budget: JS ${BUDGET_JS_GZIP / 1024} KiB, CSS ${BUDGET_CSS_GZIP / 1024} KiB`)
  process.exit(1)
}
