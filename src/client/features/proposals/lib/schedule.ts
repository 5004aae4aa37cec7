import { addMinutes, format, parse, startOfDay } from 'date-fns'
import { clubDateTimeOf, parseClubDateTime } from '#contract/club-time'

/** Every half hour of a day as 'HH:mm', from 00:00 to 23:30. */
export const HALF_HOURS: readonly string[] = (() => {
  const midnight = startOfDay(new Date(2000, 0, 1))
  return Array.from({ length: 48 }, (_, i) => format(addMinutes(midnight, i * 30), 'HH:mm'))
})()

/**
 * The half hours that exist in New York on a day (`yyyy-MM-dd`): on the day clocks spring
 * forward, 02:00 and 02:30 are skipped.
 */
export function halfHoursOn(isoDay: string): string[] {
  if (!clubDateTimeOf(isoDay, '00:00')) return [...HALF_HOURS]
  return HALF_HOURS.filter((time) => parseClubDateTime(clubDateTimeOf(isoDay, time)!) !== null)
}

/** '2:30 PM' for '14:30'. */
export function timeLabel(time: string) {
  return format(parse(time, 'HH:mm', new Date(2000, 0, 1)), 'h:mm a')
}
