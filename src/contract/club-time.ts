import { tz } from '@date-fns/tz'
// Per-function entries: the package's index makes test runs load every function.
import { addDays } from 'date-fns/addDays'
import { addMonths } from 'date-fns/addMonths'
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays'
import { format } from 'date-fns/format'
import { isValid } from 'date-fns/isValid'
import { parse } from 'date-fns/parse'
import { parseISO } from 'date-fns/parseISO'
import { set } from 'date-fns/set'
import { startOfMonth } from 'date-fns/startOfMonth'
import { CLUB_DATE_TIME_FORMAT, CLUB_TIME_ZONE } from './club-time-names'

/*
 * Club time: every podclub is scheduled, shown and mailed in New York's wall time, and every
 * calendar question (which day, which month, how many days until) is asked of New York's
 * calendar. This is the one place that knows how; server, page and e-mails all come here. It
 * uses date-fns and its time-zone package, as a calendar in New York cannot be written without
 * them and hand-made date arithmetic is what we avoid.
 */

export {
  CLUB_DATE_TIME_FORMAT,
  CLUB_TIME_ABBREVIATION,
  CLUB_TIME_MESSAGES,
  CLUB_TIME_NAME,
  CLUB_TIME_ZONE,
} from './club-time-names'

const inClubZone = { in: tz(CLUB_TIME_ZONE) }

export type ClubDateTimeReading =
  { date: Date; error?: undefined } | { date?: undefined; error: 'invalid' | 'noSuchTime' }

/**
 * Reads `MM/DD/YYYY HH:mm` as a wall time in New York (with `iso`, also ISO 8601 with an offset).
 * A wall time the spring-forward skips (02:30 on 2027-03-14) is `noSuchTime`, never moved to
 * 03:30; one the autumn repeats (01:30 on 2026-11-01) is the first, EDT.
 */
export function readClubDateTime(value: string, opts: { iso?: boolean } = {}): ClubDateTimeReading {
  const text = value.trim()
  if (/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/.test(text)) {
    const date = parse(text, CLUB_DATE_TIME_FORMAT, new Date(0), inClubZone)
    if (!isValid(date)) return { error: 'invalid' }
    // A skipped wall time parses to the hour after it: writing it back tells them apart.
    if (format(date, CLUB_DATE_TIME_FORMAT, inClubZone) !== text) return { error: 'noSuchTime' }
    return { date: new Date(date.getTime()) }
  }
  if (opts.iso && /^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d\d:?\d\d)$/.test(text)) {
    const date = parseISO(text)
    if (isValid(date)) return { date }
  }
  return { error: 'invalid' }
}

/** The instant a `MM/DD/YYYY HH:mm` New York wall time stands for, or null if it is none. */
export function parseClubDateTime(value: string): Date | null {
  return readClubDateTime(value).date ?? null
}

/** Writes an instant as the `MM/DD/YYYY HH:mm` wall time it is in New York. */
export function formatClubDateTime(date: Date): string {
  return format(date, CLUB_DATE_TIME_FORMAT, inClubZone)
}

/** A date input's day (`2026-12-01`) as the `MM/DD/YYYY` of a club time, or null if it is none. */
export function clubDateOf(day: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!match) return null
  const [, year, month, date] = match
  return `${month}/${date}/${year}`
}

/**
 * A date input's day (`yyyy-MM-dd`) and a time (`HH:mm`) as `MM/DD/YYYY HH:mm`, or null when
 * either is not one.
 */
export function clubDateTimeOf(day: string, time: string): string | null {
  const date = clubDateOf(day)
  return date && /^\d{2}:\d{2}$/.test(time) ? `${date} ${time}` : null
}

/** A `datetime-local` value (`2026-12-01T19:00`), read as New York time, as `MM/DD/YYYY HH:mm`. */
export function clubDateTimeOfInput(local: string): string | null {
  const [day = '', time = ''] = local.split('T')
  return clubDateTimeOf(day, time.slice(0, 5))
}

/** Splits `MM/DD/YYYY HH:mm` into a date input's day and the time, or null if it is not one. */
export function clubDateTimeParts(value: string): { day: string; time: string } | null {
  const date = parseClubDateTime(value)
  return date ? { day: clubDay(date), time: format(date, 'HH:mm', inClubZone) } : null
}

/** Whether `date` lies after `now`: the rule behind every 'must be in the future'. */
export function isInFuture(date: Date, now: Date): boolean {
  return date.getTime() > now.getTime()
}

/** The day an instant falls on in New York, as `yyyy-MM-dd`. */
export function clubDay(date: Date): string {
  return format(date, 'yyyy-MM-dd', inClubZone)
}

/**
 * Moves an instant along New York's calendar, keeping its wall time: March 31 + 1 month is
 * April 30, and a day is a calendar day whatever the clocks do.
 */
export function addClubCalendar(date: Date, by: { months?: number; days?: number }): Date {
  const moved = addDays(addMonths(date, by.months ?? 0, inClubZone), by.days ?? 0, inClubZone)
  return new Date(moved.getTime())
}

/** The instant of a wall time (`hours`:`minutes`) in New York, on the day `date` falls on there. */
export function atClubTimeOfDay(date: Date, hours: number, minutes = 0): Date {
  const at = set(date, { hours, minutes, seconds: 0, milliseconds: 0 }, inClubZone)
  return new Date(at.getTime())
}

/** How many New York calendar days `later` is after `earlier` (0 on the same day). */
export function clubDaysBetween(later: Date, earlier: Date): number {
  return differenceInCalendarDays(later, earlier, inClubZone)
}

/** The club's month an instant falls in, `yyyy-MM`: a moment late on the 31st in New York is the 31st's. */
export function clubMonthKey(date: Date): string {
  return format(date, 'yyyy-MM', inClubZone)
}

/** The first instant of the club's month that `date` falls in. */
export function clubMonthStart(date: Date): Date {
  return new Date(startOfMonth(date, inClubZone).getTime())
}

/** 'December': the name of the club's month an instant falls in. */
export function clubMonthName(date: Date): string {
  return format(date, 'MMMM', inClubZone)
}

const zoneNames = new Map<string, Intl.DateTimeFormat>()

/** 'EST', 'EDT', 'GMT+1': the short name of a time zone at an instant, in US English. */
function zoneNameAt(date: Date, timeZone: string): string {
  let names = zoneNames.get(timeZone)
  if (!names) {
    names = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })
    zoneNames.set(timeZone, names)
  }
  return names.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? timeZone
}

/** 'EST' or 'EDT', whichever New York is on at that instant. */
export function clubZoneName(date: Date): string {
  return zoneNameAt(date, CLUB_TIME_ZONE)
}

/**
 * A text of an instant, worked out once per instant: every card of every build of the feed shows
 * the same few dozen start times, and formatting them in New York's zone was a third of a build.
 */
function oncePerInstant(text: (date: Date) => string, maxInstants = 2_000) {
  const known = new Map<number, string>()
  return (date: Date): string => {
    const instant = date.getTime()
    let answer = known.get(instant)
    if (answer === undefined) {
      if (known.size >= maxInstants) known.clear()
      answer = text(date)
      known.set(instant, answer)
    }
    return answer
  }
}

/** 'Thursday, December 17, 2026': the day of an instant in New York. */
export const prettyDate = oncePerInstant((date) => format(date, 'EEEE, MMMM d, yyyy', inClubZone))

/** '7:30 PM EST' (EDT in summer): the time of an instant in New York, with its zone. */
export const prettyTime = oncePerInstant(
  (date) => `${format(date, 'h:mm a', inClubZone)} ${clubZoneName(date)}`,
)

/** 'December 17, 2026': the day, without the weekday. */
export function longClubDate(date: Date): string {
  return format(date, 'MMMM d, yyyy', inClubZone)
}

/** 'Dec 17, 2026': a short day for lists. */
export function shortClubDate(date: Date): string {
  return format(date, 'MMM d, yyyy', inClubZone)
}

/** 'Dec 17, 2026, 7:30 PM EST': a US medium date with a short time and the zone. */
export function mediumClubDateTime(date: Date): string {
  return `${format(date, 'MMM d, yyyy, h:mm a', inClubZone)} ${clubZoneName(date)}`
}

/**
 * The viewer's own wall time for an instant ('Fri, Dec 18, 1:30 AM GMT+1'), or null when it
 * reads the same as in New York (the viewer is there, or in a zone that keeps the same time).
 */
export function viewerTimeOf(date: Date, viewerTimeZone: string): string | null {
  const pattern = 'EEE, MMM d, h:mm a'
  const club = format(date, pattern, inClubZone)
  const local = format(date, pattern, { in: tz(viewerTimeZone) })
  return club === local ? null : `${local} ${zoneNameAt(date, viewerTimeZone)}`
}

/**
 * When an instant comes, said from `now`: 'in 10 minutes', 'today', 'tomorrow', 'in 5 days',
 * 'in one week' (days by New York's calendar). Said late (after downtime, or for a notice
 * pressed early) it still tells the truth.
 */
export function startsWhen(startsAt: Date, now: Date): string {
  const minutes = Math.ceil((startsAt.getTime() - now.getTime()) / 60_000)
  if (minutes <= 1) return minutes === 1 ? 'in 1 minute' : 'now'
  if (minutes < 60) return `in ${minutes} minutes`
  const days = clubDaysBetween(startsAt, now)
  if (days <= 0) return 'today'
  if (days === 1) return 'tomorrow'
  if (days === 7) return 'in one week'
  return `in ${days} days`
}
