import { tz } from '@date-fns/tz'
import { isValid, parse, parseISO } from 'date-fns'
import { CLUB_TIME_ZONE } from '#contract/common'

/**
 * A moment typed by a person: `MM/DD/YYYY HH:mm` read as New York time (the proposal format of
 * CONTRACT.md), or ISO 8601 with an offset. Undefined when it is neither.
 */
export function parseClubDateTime(text: string): Date | undefined {
  const value = text.trim()
  const eastern = parse(value, 'MM/dd/yyyy HH:mm', new Date(0), { in: tz(CLUB_TIME_ZONE) })
  if (isValid(eastern)) return new Date(eastern.getTime())
  if (!/(Z|[+-]\d\d:?\d\d)$/.test(value)) return undefined
  const iso = parseISO(value)
  return isValid(iso) ? iso : undefined
}
