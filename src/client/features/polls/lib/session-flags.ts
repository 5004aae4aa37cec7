/**
 * What the poll window keeps for the browser tab (sessionStorage): that this tab voted in a
 * poll, and until when the celebration runs, so both survive a reload. Storage can be off
 * (private modes, quotas): then the flags simply don't persist.
 */

export const CONFETTI_MS = 3000

const votedKey = (pollId: string) => `podclub.poll.${pollId}.voted`
const confettiKey = (pollId: string) => `podclub.poll.${pollId}.confetti-until`

function read(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key)
  } catch {
    return null
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) window.sessionStorage.removeItem(key)
    else window.sessionStorage.setItem(key, value)
  } catch {
    // Not persisted; the state still holds until the page is left.
  }
}

export const hasVotedIn = (pollId: string) => read(votedKey(pollId)) === '1'

/** Marks the vote and starts the celebration; returns when it ends (ms since epoch). */
export function markVoted(pollId: string, now = Date.now()): number {
  const until = now + CONFETTI_MS
  write(votedKey(pollId), '1')
  write(confettiKey(pollId), String(until))
  return until
}

/** When a celebration started in this tab ends, if one is still running. */
export function confettiUntil(pollId: string, now = Date.now()): number | null {
  const until = Number(read(confettiKey(pollId)))
  if (Number.isFinite(until) && until > now) return until
  write(confettiKey(pollId), null)
  return null
}

export const clearConfetti = (pollId: string) => write(confettiKey(pollId), null)
