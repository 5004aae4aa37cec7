import { tz } from '@date-fns/tz'
import { addMinutes, format, isValid, parse, startOfDay } from 'date-fns'
import { CLUB_TIME_ZONE } from '#contract/common'
import { formatScheduledStart, parseScheduledStart } from '#contract/proposals'

const inClubZone = { in: tz(CLUB_TIME_ZONE) }

/** Every half hour of a day as 'HH:mm', from 00:00 to 23:30. */
export const HALF_HOURS: readonly string[] = (() => {
  const midnight = startOfDay(new Date(2000, 0, 1))
  return Array.from({ length: 48 }, (_, i) => format(addMinutes(midnight, i * 30), 'HH:mm'))
})()

/** '2026-03-08' (a date input's value) as the wizard's 'MM/DD/YYYY' date part, or null. */
export function toUsDate(isoDay: string): string | null {
  const day = parse(isoDay, 'yyyy-MM-dd', new Date(2000, 0, 1))
  return isValid(day) ? format(day, 'MM/dd/yyyy') : null
}

/** Splits the wizard's 'MM/DD/YYYY HH:mm' into a date input's day and the time. */
export function splitScheduledStart(value: string): { day: string; time: string } | null {
  const date = parseScheduledStart(value)
  if (!date) return null
  return { day: format(date, 'yyyy-MM-dd', inClubZone), time: format(date, 'HH:mm', inClubZone) }
}

/**
 * The half hours that exist in New York on a day: on the day clocks spring forward, 02:00 and
 * 02:30 are skipped.
 */
export function halfHoursOn(isoDay: string): string[] {
  const usDay = toUsDate(isoDay)
  if (!usDay) return [...HALF_HOURS]
  return HALF_HOURS.filter((time) => {
    const date = parseScheduledStart(`${usDay} ${time}`)
    return date !== null && formatScheduledStart(date) === `${usDay} ${time}`
  })
}

/** '2:30 PM' for '14:30'. */
export function timeLabel(time: string) {
  return format(parse(time, 'HH:mm', new Date(2000, 0, 1)), 'h:mm a')
}
