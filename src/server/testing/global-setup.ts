import { randomBytes } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { build } from '../../../scripts/build.mjs'
import { pgdataOf } from '../db/backup'
import { openMemoryPglite, openPostgres } from '../db/client'
import { postgresUrlFor, TEMPLATE_DIR } from './test-db'

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplateFile: string
    pgliteTemplateFolder: string
    postgresTemplateDb: string
  }
}

/**
 * Migrates one template per engine, once per run: each test file then clones it instead of
 * migrating its own database (a fresh PGlite takes seconds to create), and a process test copies
 * the PGlite one as a DATA_DIR unless its subject is the first start on an empty folder. Names are unique per run,
 * so two runs side by side don't trip over each other.
 */
export default async function setup(project: TestProject) {
  // The process tests run the built server, as `npm start` does: rebuilt here if it changed.
  await build({ page: false, server: true, ifStale: true })
  const runId = `${process.pid}_${randomBytes(3).toString('hex')}`
  // `test.env` reaches the test workers, not this hook: read the project's own setting.
  if (project.config.env?.TEST_ENGINE === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL!
    const name = `podclub_tpl_${runId}`
    const admin = new pg.Client({ connectionString: adminUrl })
    await admin.connect()
    await admin.query(`create database ${name}`)
    await admin.end()
    const template = await openPostgres(postgresUrlFor(adminUrl, name), { max: 1 })
    await template.close()
    project.provide('postgresTemplateDb', name)
    return async () => {
      const drop = new pg.Client({ connectionString: adminUrl })
      await drop.connect()
      await drop.query(`drop database if exists ${name} with (force)`)
      await drop.end()
    }
  }
  const database = await openMemoryPglite()
  // Uncompressed: 42 MB on disk, but each test file opens it in about 360 ms instead of 650.
  const dump = await database.client.dumpDataDir('none')
  await database.close()
  const file = path.join(TEMPLATE_DIR, `pglite-template-${runId}.tar`)
  await mkdir(TEMPLATE_DIR, { recursive: true })
  await writeFile(file, Buffer.from(await dump.arrayBuffer()))
  project.provide('pgliteTemplateFile', file)
  // The same database as a server's DATA_DIR after its first start, for the process tests to copy.
  const folder = path.join(TEMPLATE_DIR, `pglite-folder-${runId}`)
  await mkdir(folder)
  const inFolder = await PGlite.create(pgdataOf(folder), { loadDataDir: dump })
  await inFolder.close()
  project.provide('pgliteTemplateFolder', folder)
  return async () => {
    await rm(file, { force: true })
    await rm(folder, { recursive: true, force: true })
  }
}
