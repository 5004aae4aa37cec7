// Measures the JavaScript and CSS the browser loads for `/`, gzipped, and fails when it grows
// past the budget: the entry, everything it imports, and the home screen's chunk with its
// imports (the router loads it at once on `/`). Run after `npm run build`. It also prints the
// brotli files the build wrote, which is what a browser that accepts br receives.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

// React DOM itself runs the page (docs/decisions/027): it is about 60 KiB of the first load, with
// React Router (28 KiB) and TanStack Query (11 KiB); the budget is the goal that decision set.
const BUDGET_JS_GZIP = 135 * 1024
const BUDGET_CSS_GZIP = 20 * 1024
/**
 * The heaviest screens: what each loads beyond the first load (its chunk and the imports the
 * first load did not bring), gzip JS.
 */
const ROUTE_BUDGETS = {
  // Most of each is the form toolkit: zod and react-hook-form, shared by the three.
  'app/routes/control-panel.tsx': 94 * 1024,
  'app/routes/propose.tsx': 75 * 1024,
  'app/routes/polls.tsx': 62 * 1024,
}
/** The route modules `/` renders on its first load. */
const FIRST_SCREENS = ['app/routes/home.tsx']

const dist = new URL('../dist/client/', import.meta.url)
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'))

/** Adds a chunk of the manifest, its static imports and their CSS to `files`, each file once. */
function collect(key, files) {
  const chunk = manifest[key]
  if (!chunk || files.has(chunk.file)) return files
  files.add(chunk.file)
  for (const css of chunk.css ?? []) files.add(css)
  for (const imported of chunk.imports ?? []) collect(imported, files)
  return files
}
const files = new Set()
const entry = Object.keys(manifest).find((key) => manifest[key].isEntry)
if (!entry) throw new Error('the build manifest names no entry')
collect(entry, files)
for (const screen of FIRST_SCREENS) {
  if (!manifest[screen]) throw new Error(`the build manifest has no chunk for ${screen}`)
  collect(screen, files)
}

const sizes = { js: 0, css: 0 }
const brotli = { js: 0, css: 0 }
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`
for (const file of [...files].sort()) {
  const kind = file.endsWith('.css') ? 'css' : 'js'
  const source = readFileSync(new URL(file, dist))
  const gz = gzipSync(source, { level: 9 }).length
  // A file the build left uncompressed (under 1 KiB) is sent as it is.
  const brFile = new URL(`${file}.br`, dist)
  const br = existsSync(brFile) ? statSync(brFile).size : source.length
  sizes[kind] += gz
  brotli[kind] += br
  console.log(`${file.padEnd(48)} ${kib(gz)} gzip, ${kib(br)} brotli`)
}
console.log(`first load of / (shell and home): JS ${kib(sizes.js)}, CSS ${kib(sizes.css)} (gzip)`)
console.log(`as sent with brotli: JS ${kib(brotli.js)}, CSS ${kib(brotli.css)}`)
let over = false
if (sizes.js > BUDGET_JS_GZIP || sizes.css > BUDGET_CSS_GZIP) {
  console.error(`over budget: JS ${BUDGET_JS_GZIP / 1024} KiB, CSS ${BUDGET_CSS_GZIP / 1024} KiB`)
  over = true
}

for (const [screen, budget] of Object.entries(ROUTE_BUDGETS)) {
  if (!manifest[screen]) throw new Error(`the build manifest has no chunk for ${screen}`)
  let js = 0
  for (const file of collect(screen, new Set())) {
    if (files.has(file) || file.endsWith('.css')) continue
    js += gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length
  }
  const verdict = js > budget ? `over its budget of ${kib(budget)}` : `budget ${kib(budget)}`
  console.log(`${screen} beyond the first load: JS ${kib(js)} (gzip), ${verdict}`)
  if (js > budget) over = true
}
// Server-rendered screens whose first load must carry no zod (decision 011): its evaluation was
// a long task of a phone's start. A form there loads its schema on the person's first key or tap.
// zod is found by its English messages, which every build of it carries.
const ZOD_FREE_SCREENS = [
  'app/routes/home.tsx',
  'app/routes/podclub.tsx',
  'app/routes/about.tsx',
  'app/routes/login.tsx',
  'app/routes/forgot-password.tsx',
]
const ZOD_MARK = 'Invalid input: expected'
let zodFree = true
for (const screen of ZOD_FREE_SCREENS) {
  if (!manifest[screen]) throw new Error(`the build manifest has no chunk for ${screen}`)
  const withZod = [...collect(screen, collect(entry, new Set()))].filter(
    (file) => file.endsWith('.js') && readFileSync(new URL(file, dist), 'utf8').includes(ZOD_MARK),
  )
  if (withZod.length) {
    console.error(`${screen} loads zod on its first load: ${withZod.join(', ')}`)
    zodFree = false
  }
}
if (zodFree) console.log(`no zod in the first load of ${ZOD_FREE_SCREENS.join(', ')}`)
else over = true
if (over) process.exit(1)
