import type { PollResult } from '#contract/polls'

export type OptionTally = Omit<PollResult, 'percentage'> & { position: number }

/**
 * Orders options by votes, most first (spec 2 §9), and gives each its share of the votes.
 *
 * Shares are rounded to one decimal each, so options with equal votes always show the same
 * percentage (largest-remainder rounding would make a tie read 33.4 / 33.3 / 33.3). The sum then
 * stays within 0.05 points per option of 100; with no votes every share is 0. Equal votes keep
 * the order the poll was created in.
 */
export function rankResults(options: readonly OptionTally[]): PollResult[] {
  const total = options.reduce((sum, o) => sum + o.votes, 0)
  return [...options]
    .sort((a, b) => b.votes - a.votes || a.position - b.position || a.id - b.id)
    .map(({ position: _position, ...option }) => ({
      ...option,
      percentage: total === 0 ? 0 : Math.round((option.votes * 1000) / total) / 10,
    }))
}
