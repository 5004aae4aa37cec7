/** One piece of user text: plain text, or an http(s) URL to show as a link. */
export type TextPart = { type: 'text'; value: string } | { type: 'url'; value: string }

// http(s) only; a URL ends at whitespace, and trailing punctuation belongs to the sentence.
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"]+[^\s<>"'.,;:!?)\]}]/gi

/** Splits free text into text and http(s) URL parts, in order; joined, they give the text back. */
export function splitTextParts(text: string): TextPart[] {
  const parts: TextPart[] = []
  let last = 0
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index
    if (start > last) parts.push({ type: 'text', value: text.slice(last, start) })
    parts.push({ type: 'url', value: match[0] })
    last = start + match[0].length
  }
  if (last < text.length) parts.push({ type: 'text', value: text.slice(last) })
  return parts
}

/**
 * The first `maxWords` words of a text (spec: 30 for descriptions, notes and hindsights), and
 * whether anything was cut. Whitespace inside the kept part is left as written.
 */
export function truncateWords(
  text: string,
  maxWords: number,
): { text: string; truncated: boolean } {
  const words = text.trim().split(/\s+/).filter(Boolean)
  if (words.length <= maxWords) return { text: text.trim(), truncated: false }
  let seen = 0
  const cut = text.trim().replace(/\S+/g, (word) => (++seen <= maxWords ? word : '\u0000'))
  return { text: `${cut.slice(0, cut.indexOf('\u0000')).trimEnd()}…`, truncated: true }
}

/**
 * A count as en-US writes it ('12,345'). By hand: the first `toLocaleString` of a page starts
 * Intl's locale data, a long task on a phone for a few digits.
 */
export function formatCount(count: number): string {
  if (!Number.isSafeInteger(count)) return String(count)
  const sign = count < 0 ? '-' : ''
  return sign + String(Math.abs(count)).replace(/\B(?=(\d{3})+$)/g, ',')
}
