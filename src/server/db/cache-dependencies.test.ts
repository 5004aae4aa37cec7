import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CachedRead, cachedReadRunning, declaredCachedReads } from './cache-versions'
import { registrations, seatWaitlist } from './schema/index'
import { insertPodclub } from '../features/podclubs/podclubs.fixtures'
import { createTestDatabase, type TestDatabase } from '../testing/test-db'
import {
  buildTestApp,
  createAgent,
  createUser,
  loggedInMember,
  type TestApp,
} from '../testing/test-app'

/**
 * Every cached read (`cachedByVersion`) proven fresh against the database itself:
 * - each one the app makes is run here, and every statement it sends is recorded, with the keys
 *   it reads;
 * - PostgreSQL says, for each statement (EXPLAIN VERBOSE), which columns of which tables it uses;
 *   each must be listed in the read's `dependsOn`;
 * - for each table and column listed, the catalog must hold a trigger calling
 *   `bump_cache_version` with one of the read's versions, firing on a new row, a deleted one, a
 *   truncate and an update of that column;
 * - a read kept per key (`perKey`: a podclub's seats, a member's seats) reads each table its key's
 *   version stands for only where the key column is one of the keys it reads (every scan of it
 *   in the plan has that condition, not under an OR), and the trigger there raises the row of
 *   the changed row's key (its second argument is that column); a truncate raises the version
 *   itself;
 * - a cached read sends no statement but reads.
 */

type Statement = { read: string; keys: readonly unknown[]; text: string; params: unknown[] }

let database: TestDatabase
let t: TestApp
const statements: Statement[] = []

/** The driver under `db`: a PGlite, or a pool of PostgreSQL connections. */
type Client = {
  query: (...args: unknown[]) => Promise<{ rows: unknown[] }>
  transaction?: (...args: unknown[]) => Promise<unknown>
  connect?: (...args: unknown[]) => Promise<unknown>
}
const clientOf = () => (database.db as unknown as { $client: Client }).$client

/** A statement sent as it is, with its parameters, on either engine. */
async function rawQuery<R>(text: string, params: unknown[] = []): Promise<R[]> {
  return (await clientOf().query(text, params)).rows as R[]
}

beforeAll(async () => {
  database = await createTestDatabase()
  const client = clientOf()
  const query = client.query.bind(client)
  client.query = (first: unknown, params?: unknown, ...rest: unknown[]) => {
    const read = cachedReadRunning()
    if (read) {
      // PGlite: (text, params); node-postgres: also ({ text, values }) or ({ text }, params).
      const config = typeof first === 'string' ? { text: first, values: params } : first
      const { text, values } = config as { text: string; values?: unknown[] }
      statements.push({
        read: read.name,
        keys: read.keys,
        text,
        params: values ?? (params as unknown[] | undefined) ?? [],
      })
    }
    return query(first, params, ...rest)
  }
  // A transaction: PGlite's own, or a connection taken from the pool for one.
  for (const method of ['transaction', 'connect'] as const) {
    const original = client[method]?.bind(client)
    if (!original) continue
    client[method] = (...args: unknown[]) => {
      const read = cachedReadRunning()
      // (The pool also takes a connection for each query, with a callback: not a transaction.)
      if (read && typeof args[0] !== 'function')
        statements.push({ read: read.name, keys: read.keys, text: method, params: [] })
      return original(...args)
    }
  }
  t = await buildTestApp({ database })
  await readColumns()
  await readIndexes()
})
afterAll(async () => {
  await t.app.close()
  await database.close()
})

/** The columns of every table of the schema. */
const columnsOf = new Map<string, Set<string>>()
async function readColumns() {
  const rows = await rawQuery<{ table: string; column: string }>(
    `select table_name as "table", column_name as "column" from information_schema.columns
     where table_schema = 'public'`,
  )
  for (const row of rows) {
    const set = columnsOf.get(row.table) ?? new Set<string>()
    set.add(row.column)
    columnsOf.set(row.table, set)
  }
}

/** Every index of the schema: its table and definition. */
const indexes = new Map<string, { table: string; def: string }>()
async function readIndexes() {
  const rows = await rawQuery<{ name: string; table: string; def: string }>(
    `select indexname as name, tablename as "table", indexdef as def from pg_indexes
     where schemaname = 'public'`,
  )
  for (const row of rows) indexes.set(row.name, { table: row.table, def: row.def })
}

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] }

type Plan = { used: Map<string, Set<string>>; scans: { table: string; node: PlanNode }[] }

/** The columns a statement uses, as `table.column`, and the tables it scans, from its plan. */
async function planOf(statement: Statement): Promise<Plan> {
  const result = await rawQuery<{ 'QUERY PLAN': PlanNode[] }>(
    `explain (verbose, format json) ${statement.text}`,
    statement.params,
  )
  const plan = result[0]!['QUERY PLAN']
  const nodes: PlanNode[] = []
  const walk = (node: PlanNode) => {
    nodes.push(node)
    for (const child of node.Plans ?? []) walk(child)
  }
  for (const top of plan) walk(top.Plan as PlanNode)

  const tableOf = new Map<string, string>()
  const used = new Map<string, Set<string>>()
  for (const node of nodes) {
    const table = node['Relation Name']
    if (typeof table === 'string') {
      tableOf.set(String(node.Alias), table)
      if (!used.has(table)) used.set(table, new Set())
    }
  }
  // An index scan may leave a condition to the index (a partial index's predicate shows nowhere
  // else): the columns of the index count as used.
  for (const node of nodes) {
    const index = indexes.get(String(node['Index Name']))
    if (!index) continue
    const all = used.get(index.table) ?? new Set<string>()
    for (const [name] of index.def.matchAll(/[a-z_][a-z0-9_]*/g)) {
      if (columnsOf.get(index.table)?.has(name)) all.add(name)
    }
    used.set(index.table, all)
  }
  const only = used.size === 1 ? [...used.keys()][0]! : undefined
  for (const node of nodes) {
    // A scan below another node may hand up every column of its table (PostgreSQL's 'physical
    // tlist', cheaper than picking): the nodes above name the ones used, as do its conditions.
    const handsUpAll =
      typeof node['Relation Name'] === 'string' && !plan.some((p) => p.Plan === node)
    const texts = Object.entries(node)
      .filter(([key]) => key !== 'Plans' && !(handsUpAll && key === 'Output'))
      .flatMap(([, value]) => (Array.isArray(value) ? value : [value]))
      .filter((value): value is string => typeof value === 'string')
    for (const text of texts) {
      for (const [, alias, column] of text.matchAll(
        /\b([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*)\b/g,
      )) {
        const table = tableOf.get(alias!)
        if (table) used.get(table)!.add(column!)
      }
      // A statement on one table names its columns without the table.
      if (only) {
        for (const [, name] of text.matchAll(/(?<![.\w])([a-z_][a-z0-9_]*)\b(?![.(])/g)) {
          if (columnsOf.get(only)?.has(name!)) used.get(only)!.add(name!)
        }
      }
    }
  }
  const scans = nodes.flatMap((node) =>
    typeof node['Relation Name'] === 'string' ? [{ table: node['Relation Name'], node }] : [],
  )
  return { used, scans }
}

/** The parts of a condition joined by AND at its top: a row passes only if each holds. */
function conjuncts(condition: string): string[] {
  const unwrap = (text: string) => {
    let t = text.trim()
    for (;;) {
      if (!t.startsWith('(') || !t.endsWith(')')) return t
      let depth = 0
      for (let i = 0; i < t.length; i++) {
        if (t[i] === '(') depth++
        else if (t[i] === ')') depth--
        if (depth === 0 && i < t.length - 1) return t
      }
      t = t.slice(1, -1).trim()
    }
  }
  const whole = unwrap(condition)
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < whole.length; i++) {
    if (whole[i] === '(') depth++
    else if (whole[i] === ')') depth--
    else if (depth === 0 && whole.startsWith(' AND ', i)) {
      parts.push(unwrap(whole.slice(start, i)))
      start = i + ' AND '.length
    }
  }
  parts.push(unwrap(whole.slice(start)))
  return parts
}

/**
 * The values a scan of a table keeps its `column` to, by its own conditions (an index's, a
 * filter's): `column = 12` or `column = ANY ('{12,13}')`; undefined when none does.
 */
function keptTo(node: PlanNode, column: string): number[] | undefined {
  const alias = String(node.Alias)
  const name = `(?:${alias}\\.)?${column}`
  const equals = new RegExp(`^${name} = (\\d+)$|^(\\d+) = ${name}$`)
  const any = new RegExp(`^${name} = ANY \\('\\{([\\d,]*)\\}'::integer\\[\\]\\)$`)
  for (const key of ['Index Cond', 'Recheck Cond', 'Filter']) {
    const condition = node[key]
    if (typeof condition !== 'string') continue
    for (const part of conjuncts(condition)) {
      const one = equals.exec(part)
      if (one) return [Number(one[1] ?? one[2])]
      const some = any.exec(part)
      if (some) return some[1] === '' ? [] : some[1]!.split(',').map(Number)
    }
  }
  return undefined
}

type Trigger = {
  table: string
  version: string
  /** The column of the changed row whose value names the row raised (`seats:<podclub_id>`). */
  key?: string
  forEachRow: boolean
  onInsert: boolean
  onDelete: boolean
  onTruncate: boolean
  onUpdate: boolean
  /** The columns of UPDATE OF; empty for an update of any column. */
  columns: string[]
}

/** The triggers that raise a version, and any other function that writes cache_versions. */
async function versionTriggers(): Promise<{ triggers: Trigger[]; functions: string[] }> {
  const rows = await rawQuery<{
    table: string
    fn: string
    args: string
    type: number
    columns: string[] | null
  }>(`
    select c.relname as "table", p.proname as fn,
      encode(t.tgargs, 'escape') as args, t.tgtype::int as type,
      (select array_agg(a.attname::text) from unnest(t.tgattr::int2[]) as k(n)
        join pg_attribute a on a.attrelid = t.tgrelid and a.attnum = k.n) as columns
    from pg_trigger t
    join pg_class c on c.oid = t.tgrelid
    join pg_proc p on p.oid = t.tgfoid
    where not t.tgisinternal`)
  const functions = await rawQuery<{ name: string }>(`
    select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and p.prosrc ilike '%cache_versions%'`)
  return {
    triggers: rows
      .filter((r) => r.fn === 'bump_cache_version')
      .map((r) => {
        const [version, key] = r.args.replace(/\\000$/, '').split('\\000')
        return {
          table: r.table,
          version: version!,
          key,
          // pg_trigger.tgtype: 1 for each row, 4 insert, 8 delete, 16 update, 32 truncate.
          forEachRow: (r.type & 1) !== 0,
          onInsert: (r.type & 4) !== 0,
          onDelete: (r.type & 8) !== 0,
          onUpdate: (r.type & 16) !== 0,
          onTruncate: (r.type & 32) !== 0,
          columns: r.columns ?? [],
        }
      }),
    functions: functions.map((r) => r.name),
  }
}

/** What a change of `table.column` (or of the table's rows, for column '*') fails to raise. */
function unraised(triggers: Trigger[], read: CachedRead, table: string, column: string): string[] {
  const versions: readonly string[] = read.versions
  const keyColumn = read.perKey?.columns[table]
  // Where the read's key stands for the table, the row of the changed row's key must be raised,
  // and on a truncate (no row) the version itself; elsewhere, one of the read's versions.
  const rowTriggers = triggers.filter((tr) =>
    tr.table !== table
      ? false
      : keyColumn !== undefined
        ? tr.version === read.perKey!.version && tr.key === keyColumn && tr.forEachRow
        : versions.includes(tr.version) && tr.key === undefined,
  )
  const truncateTriggers = triggers.filter(
    (tr) =>
      tr.table === table &&
      tr.key === undefined &&
      (keyColumn !== undefined
        ? tr.version === read.perKey!.version
        : versions.includes(tr.version)),
  )
  const missing: string[] = []
  const raisesNone = (change: string) =>
    missing.push(`${change} raises none of ${versionsOf(read, table)}`)
  if (column === '*') {
    const through = read.newRowsSeenThrough?.[table]
    if (through !== undefined) {
      // The table that refers to it must be read, and raise the version for its new rows.
      if (!read.dependsOn[through])
        missing.push(`${through}, through which ${table} is seen, is not read`)
      else missing.push(...unraised(triggers, { ...read, newRowsSeenThrough: {} }, through, '*'))
    } else if (!rowTriggers.some((tr) => tr.onInsert)) raisesNone(`a new row of ${table}`)
    if (!rowTriggers.some((tr) => tr.onDelete)) raisesNone(`a deleted row of ${table}`)
    if (!truncateTriggers.some((tr) => tr.onTruncate)) raisesNone(`a truncate of ${table}`)
  } else if (
    !rowTriggers.some(
      (tr) => tr.onUpdate && (tr.columns.length === 0 || tr.columns.includes(column)),
    )
  ) {
    raisesNone(`an update of ${table}.${column}`)
  }
  return missing
}

/** Where a read kept per key reads a table its key stands for beyond the keys it reads. */
function beyondKeys(read: CachedRead, statement: Statement, plan: Plan): string[] {
  const problems: string[] = []
  for (const [table, column] of Object.entries(read.perKey?.columns ?? {})) {
    for (const { node } of plan.scans.filter((scan) => scan.table === table)) {
      const kept = keptTo(node, column)
      const keys = statement.keys.map(Number)
      if (kept === undefined || kept.some((value) => !keys.includes(value)))
        problems.push(
          `${read.name} reads ${table} beyond its keys (${keys.join(', ')}): ${node['Node Type']} ` +
            `${JSON.stringify(node['Index Cond'] ?? node['Recheck Cond'] ?? node.Filter ?? 'with no condition')}`,
        )
    }
  }
  return problems
}

/** The versions a change of `table` must raise for `read`, in words. */
function versionsOf(read: CachedRead, table: string): string {
  const column = read.perKey?.columns[table]
  return column === undefined
    ? read.versions.join(', ')
    : `${read.perKey!.version}:<${column}> (${read.perKey!.version} on a truncate)`
}

describe('every cached read', () => {
  it('uses only columns it lists, each raising its versions when changed, and never writes', async () => {
    // Data for every statement of every read: a podclub with a seat and a waiting member.
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const { user, agent } = await loggedInMember(t)
    const waiting = await createUser(t)
    await t.db.insert(registrations).values({ podclubId: podclub.id, userId: user.id })
    await t.db.insert(seatWaitlist).values({ podclubId: podclub.id, userId: waiting.id })

    const visitor = createAgent(t.app)
    const allVersions = async () =>
      Object.fromEntries(
        (
          await rawQuery<{ name: string; version: number }>(
            'select name, version from cache_versions',
          )
        ).map((r) => [r.name, r.version]),
      )
    const versionsBefore = await allVersions()
    for (const [client, path] of [
      [visitor, '/api/v1/all_upcoming_podclubs/'],
      [visitor, `/api/v1/podclubs/${podclub.id}/`],
      [visitor, '/api/v1/splash/'],
      [agent, '/api/v1/whoami/'],
      [agent, '/api/v1/profile/'],
    ] as const) {
      const res = await client.get(path)
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200)
    }
    // Reading wrote nothing a version stands for (the profile once recorded a calendar token).
    expect(await allVersions()).toEqual(versionsBefore)

    const reads = declaredCachedReads(t.db)
    expect(reads.map((r) => r.name).sort()).toEqual(
      [...new Set(statements.map((s) => s.read))].sort(),
    )
    const writes = statements.filter((s) => !/^[\s(]*select\b/i.test(s.text))
    expect(writes.map((s) => `${s.read}: ${s.text}`)).toEqual([])

    const { triggers, functions } = await versionTriggers()
    // One trigger function raises every version.
    expect(functions).toEqual(['bump_cache_version'])

    const problems: string[] = []
    for (const read of reads) {
      const used = new Map<string, Set<string>>()
      for (const statement of statements.filter((s) => s.read === read.name)) {
        const plan = await planOf(statement)
        for (const [table, columns] of plan.used) {
          const all = used.get(table) ?? new Set()
          for (const c of columns) all.add(c)
          used.set(table, all)
        }
        problems.push(...beyondKeys(read, statement, plan))
      }
      for (const [table, columns] of used) {
        const listed = read.dependsOn[table]
        if (!listed) {
          problems.push(
            `${read.name} reads ${table} (${[...columns].sort().join(', ')}), which it does not list`,
          )
          continue
        }
        for (const column of columns) {
          if (!listed.includes(column))
            problems.push(`${read.name} uses ${table}.${column}, which it does not list`)
        }
      }
      for (const [table, columns] of Object.entries(read.dependsOn)) {
        for (const column of ['*', ...columns]) {
          for (const change of unraised(triggers, read, table, column))
            problems.push(`${read.name}: ${change}`)
        }
      }
    }
    expect(problems).toEqual([])
  })
})
