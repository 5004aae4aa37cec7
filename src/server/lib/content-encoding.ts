import { promisify } from 'node:util'
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib'

/** How an answer goes over the wire. */
export type ContentEncoding = 'br' | 'gzip' | 'identity'

/** What was picked for each header seen lately: browsers send a handful of them, again and again. */
const picked = new Map<string, ContentEncoding>()
const PICKED_MAX = 100

/** br, else gzip, else as is; an encoding with q=0 is refused. */
export function pickEncoding(header: string | undefined): ContentEncoding {
  if (!header) return 'identity'
  let encoding = picked.get(header)
  if (!encoding) {
    encoding = readAcceptEncoding(header)
    if (picked.size >= PICKED_MAX) picked.clear()
    picked.set(header, encoding)
  }
  return encoding
}

function readAcceptEncoding(header: string): ContentEncoding {
  const accepted = new Map<string, number>()
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';')
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean)
    accepted.set(name.trim(), q === undefined ? 1 : Number(q))
  }
  const wants = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0
  if (wants('br')) return 'br'
  if (wants('gzip')) return 'gzip'
  return 'identity'
}

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * A body compressed per answer: brotli at `brotliQuality` (quick levels, not the build's highest)
 * or gzip at level 6.
 */
export function encode(
  body: Buffer | string,
  encoding: Exclude<ContentEncoding, 'identity'>,
  { brotliQuality }: { brotliQuality: number },
): Promise<Buffer> {
  return encoding === 'br'
    ? brotliAsync(body, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: brotliQuality,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body),
        },
      })
    : gzipAsync(body, { level: 6 })
}
