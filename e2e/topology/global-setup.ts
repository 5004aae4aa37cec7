import { existsSync } from 'node:fs'
import { build, pageEntry, serverEntry } from '../../scripts/build.mjs'

/**
 * The release is built once, before any process starts, as on a server (the unit runs the build
 * as it is): whatever changed since the last build is built again. `E2E_SKIP_BUILD=1` runs the
 * build there is.
 */
export default async function globalSetup() {
  const built = existsSync(pageEntry) && existsSync(serverEntry)
  if (process.env.E2E_SKIP_BUILD !== '1' || !built) await build({ ifStale: true })
}
