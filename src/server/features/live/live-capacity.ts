import { readFileSync } from 'node:fs'

/** Open files kept for everything but live streams: requests, the database, logs, the page. */
export const MIN_HEADROOM_FILES = 200
/** Without a setting, a process holds at most this many streams, however high its file limit. */
export const DEFAULT_MAX_STREAMS = 20_000
/** Without a setting or a file limit the system tells (not Linux), this many. */
export const FALLBACK_MAX_STREAMS = 1_000

/**
 * The soft limit on this process's open files (what `ulimit -n` set), from `/proc/self/limits`;
 * undefined where the system does not tell it or sets none.
 */
export function openFilesLimit(limitsText?: string): number | undefined {
  let text = limitsText
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8')
    } catch {
      return undefined
    }
  }
  const line = text.split('\n').find((l) => l.startsWith('Max open files'))
  const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0]
  const n = Number(soft)
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}

/**
 * How many live streams one process holds at most (docs/decisions/028). Each holds a socket, a
 * file: of the app's process while its headers go out, then of its writer (034), which runs
 * under the same limit. Past the file limit a process can accept no connection at all, its
 * health checks included. `LIVE_STREAMS_MAX` when set; else the file limit less a quarter of it
 * (at least `MIN_HEADROOM_FILES`) for ordinary requests, up to `DEFAULT_MAX_STREAMS`.
 */
export function liveStreamsCap(setting: number | undefined, filesLimit = openFilesLimit()): number {
  if (setting !== undefined) return setting
  if (filesLimit === undefined) return FALLBACK_MAX_STREAMS
  const headroom = Math.max(MIN_HEADROOM_FILES, Math.ceil(filesLimit / 4))
  return Math.max(1, Math.min(DEFAULT_MAX_STREAMS, filesLimit - headroom))
}
