/** One message of a Zoom chat log. */
export type ChatEntry = { time: string; sender: string; message: string }

// Spec 2 §3: 'hh:mm:ss From sender: message' starts an entry. Zoom separates the parts with a
// space or a tab depending on the version, so any run of whitespace is accepted between them.
const ENTRY_START = /^(\d{1,2}:\d{2}:\d{2})\s+From\s+(.+?)\s*:(?:\s(.*))?$/
const TO_EVERYONE = /\s+to\s+Everyone$/i

/**
 * Splits a Zoom chat log into entries. A line that starts an entry (see ENTRY_START) opens a new
 * one, with ' to Everyone' taken off the sender; any other line continues the entry before it.
 * Blank lines are dropped, and text before the first entry becomes an entry without time or
 * sender, so nothing written is lost.
 */
export function parseChatlog(chatlog: string): ChatEntry[] {
  const entries: ChatEntry[] = []
  for (const rawLine of chatlog.split(/\r?\n|\r/)) {
    const line = rawLine.trimEnd()
    if (line.trim() === '') continue
    const start = ENTRY_START.exec(line)
    if (start) {
      entries.push({
        time: start[1]!,
        sender: start[2]!.replace(TO_EVERYONE, '').trim(),
        message: (start[3] ?? '').trim(),
      })
      continue
    }
    const last = entries.at(-1)
    if (last) last.message = last.message ? `${last.message}\n${line.trim()}` : line.trim()
    else entries.push({ time: '', sender: '', message: line.trim() })
  }
  return entries
}
