// Builds what `npm start` runs: the page (Vite, into dist/client) and the server (esbuild, into
// dist/server), both, or only what its sources have changed since.
//
//   node scripts/build.mjs                     build the page and the server (`npm run build`)
//   node scripts/build.mjs --if-stale          only a part whose sources changed since its build
//   node scripts/build.mjs --if-stale --server the server alone (what the admin commands need)
//
// A part is stale when its output is missing or was built from other sources than those on
// disk now. When no source file is newer than the last check, that settles it at the cost of a
// `stat` per file; otherwise the contents decide (a hash of every source file, kept beside the
// output), so a copied tree or a fresh checkout is not rebuilt for nothing. Building needs the
// dev dependencies (Vite, esbuild); a production install (`npm ci --omit=dev`) runs a tree
// built beforehand, and says so if it has to build.
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export const root = fileURLToPath(new URL('..', import.meta.url))
const dist = path.join(root, 'dist')

/** The built page's entry, which the server sends for every page address. */
export const pageEntry = path.join(dist, 'client', 'index.html')

/** The built server and admin commands: what `npm start` and `npm run admin` run with node. */
export const serverEntry = path.join(dist, 'server', 'main.js')
export const adminEntry = path.join(dist, 'server', 'cli.js')

/** Test files and test helpers are never part of a build, so editing them changes nothing. */
const isBuildSource = (file) =>
  !/\.test\.tsx?$/.test(file) && !file.split(path.sep).includes('testing')

const parts = {
  page: {
    label: 'the page',
    output: pageEntry,
    stamp: path.join(dist, 'page.build.json'),
    tool: 'vite',
    sources: ['src/client', 'src/contract', 'vite.config.ts', 'package.json', 'package-lock.json'],
    build: buildPage,
  },
  server: {
    label: 'the server',
    output: serverEntry,
    stamp: path.join(dist, 'server.build.json'),
    tool: 'esbuild',
    sources: ['src/server', 'src/contract', 'package.json', 'scripts/build.mjs'],
    build: buildServer,
  },
}

/** Every file of the part's sources, and the folders holding them (their times change when a
 * file is added or removed). */
async function sourcesOf(part) {
  const files = []
  const folders = []
  const walk = async (entry) => {
    const entries = await readdir(path.join(root, entry), { withFileTypes: true }).catch((err) => {
      if (err.code === 'ENOTDIR') return null
      throw err
    })
    if (entries === null) return void files.push(entry)
    folders.push(entry)
    for (const e of entries) {
      const child = path.join(entry, e.name)
      if (e.isDirectory()) await walk(child)
      else if (e.isFile() && isBuildSource(child)) files.push(child)
    }
  }
  for (const entry of part.sources) await walk(entry)
  return { files: files.sort(), folders }
}

/** A hash of the part's sources: their paths and contents. */
async function hashOf(files) {
  const hash = createHash('sha256')
  for (const file of files) {
    hash.update(`${file.split(path.sep).join('/')}\0`)
    hash.update(await readFile(path.join(root, file)))
    hash.update('\0')
  }
  return hash.digest('hex')
}

async function readStamp(part) {
  if (!existsSync(part.output)) return null
  try {
    const stamp = JSON.parse(await readFile(part.stamp, 'utf8'))
    return typeof stamp.sources === 'string' ? stamp : null
  } catch {
    return null
  }
}

async function writeStamp(part, stamp) {
  await mkdir(dist, { recursive: true })
  await writeFile(part.stamp, `${JSON.stringify(stamp, null, 2)}\n`)
}

/**
 * Whether the part's output was built from the sources on disk now. Nothing changed since the
 * last check (no file or folder newer than it) is enough; otherwise the contents decide, and a
 * tree that only looks newer (a copy, a checkout) gets its check time moved on.
 */
async function isCurrent(part, sources, checkedAt) {
  const stamp = await readStamp(part)
  if (!stamp) return false
  if (typeof stamp.checkedAt === 'number') {
    let newest = 0
    for (const entry of [...sources.folders, ...sources.files]) {
      newest = Math.max(newest, (await stat(path.join(root, entry))).mtimeMs)
    }
    if (newest < stamp.checkedAt) return true
  }
  if ((await hashOf(sources.files)) !== stamp.sources) return false
  // A read-only tree still starts; it only checks the contents again next time.
  await writeStamp(part, { ...stamp, checkedAt }).catch(() => {})
  return true
}

/** Imports a build tool, or explains why it is missing. */
async function tool(name, part) {
  try {
    return await import(name)
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err
    throw new Error(
      `${part.label} must be built (its build is missing or older than its sources), but ` +
        `${name} is not installed: this looks like a production install (npm ci --omit=dev). ` +
        'Build with the dev dependencies installed (npm ci && npm run build), then copy dist/ along.',
    )
  }
}

/** The page for the browser (dist/client), then its first screen for the server (dist/render). */
async function buildPage(vite) {
  const configFile = path.join(root, 'vite.config.ts')
  await vite.build({ configFile, logLevel: 'warn' })
  await vite.build({ configFile, logLevel: 'warn', build: { ssr: 'entry-server.tsx' } })
}

/**
 * One ES module per entry (shared code in a chunk beside them), the npm packages left as imports
 * resolved from node_modules at run time: PGlite and argon2 find their own files there. The
 * `#contract/*` and `#server/*` imports are resolved now. The SQL migrations are copied beside
 * the bundle, where `db/client.ts` looks for them (`./migrations` from its module).
 */
async function buildServer(esbuild, part) {
  const staging = path.join(dist, `.server-${process.pid}`)
  await rm(staging, { recursive: true, force: true })
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      main: 'src/server/main.ts',
      cli: 'src/server/cli.ts',
      // The live streams' writer, a process of its own (features/live/live-writer.ts).
      'live-writer': 'src/server/features/live/live-writer.main.ts',
    },
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    // Written, not read by default: `node --enable-source-maps` maps stack traces to the
    // sources, and reading the maps at every start costs the start time.
    sourcemap: true,
    logLevel: 'warning',
  })
  const migrations = path.join(root, 'src/server/db/migrations')
  await mkdir(path.join(staging, 'migrations', 'meta'), { recursive: true })
  // What drizzle's migrator reads: the journal and each migration's SQL.
  await copyFile(
    path.join(migrations, 'meta', '_journal.json'),
    path.join(staging, 'migrations', 'meta', '_journal.json'),
  )
  for (const file of await readdir(migrations)) {
    if (file.endsWith('.sql')) {
      await copyFile(path.join(migrations, file), path.join(staging, 'migrations', file))
    }
  }
  await writeEmptyDatabase(path.join(staging, 'migrations'), path.join(staging, EMPTY_DATABASE))
  // Swapped in whole, so a server never starts from half of one build and half of another.
  const target = path.dirname(part.output)
  const old = path.join(dist, `.server-old-${process.pid}`)
  if (existsSync(target)) await rename(target, old)
  await rename(staging, target)
  await rm(old, { recursive: true, force: true })
}

/** Beside the server bundle: what `openPglite` (db/client.ts) copies into an empty DATA_DIR. */
const EMPTY_DATABASE = 'empty-database.tar.gz'

/**
 * A PGlite database with every migration applied and nothing else (no member, no secret: the
 * server makes those at its first start), as PGlite dumps its data folder. A first start on an
 * empty DATA_DIR loads it instead of creating PGlite's cluster and migrating it, which took most
 * of its 4.1 s.
 */
async function writeEmptyDatabase(migrationsFolder, file) {
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migrate } = await import('drizzle-orm/pglite/migrator')
  const database = await PGlite.create()
  try {
    await migrate(drizzle(database), { migrationsFolder })
    const dump = await database.dumpDataDir('gzip')
    await writeFile(file, Buffer.from(await dump.arrayBuffer()))
  } finally {
    await database.close()
  }
}

/**
 * Builds the parts asked for (`page`, `server`); with `ifStale`, only those whose sources changed
 * since their build. Progress goes to stderr, so an admin command's own output stays clean.
 * Returns the parts it built.
 */
export async function build({ page = true, server = true, ifStale = false } = {}) {
  const built = []
  for (const [name, part] of Object.entries(parts)) {
    if ((name === 'page' && !page) || (name === 'server' && !server)) continue
    // Taken before the sources are read: a file saved while they are read counts as newer.
    const checkedAt = Date.now()
    const sources = await sourcesOf(part)
    if (ifStale && (await isCurrent(part, sources, checkedAt))) continue
    const buildTool = await tool(part.tool, part)
    const started = performance.now()
    process.stderr.write(`podclub: building ${part.label}...\n`)
    await rm(part.stamp, { force: true })
    const hash = await hashOf(sources.files)
    await part.build(buildTool, part)
    await writeStamp(part, { sources: hash, checkedAt })
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    process.stderr.write(`podclub: built ${part.label} in ${seconds} s\n`)
    built.push(name)
  }
  return built
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = new Set(process.argv.slice(2))
  const known = new Set(['--if-stale', '--page', '--server'])
  const unknown = [...args].filter((arg) => !known.has(arg))
  if (unknown.length > 0) {
    process.stderr.write(`usage: node scripts/build.mjs [--if-stale] [--page] [--server]\n`)
    process.exit(2)
  }
  const only = args.has('--page') || args.has('--server')
  try {
    await build({
      page: !only || args.has('--page'),
      server: !only || args.has('--server'),
      ifStale: args.has('--if-stale'),
    })
  } catch (err) {
    process.stderr.write(`podclub: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exit(1)
  }
}
