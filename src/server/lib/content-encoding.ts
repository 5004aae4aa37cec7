/** How an answer goes over the wire. */
export type ContentEncoding = 'br' | 'gzip' | 'identity'

/** br, else gzip, else as is; an encoding with q=0 is refused. */
export function pickEncoding(header: string | undefined): ContentEncoding {
  if (!header) return 'identity'
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
