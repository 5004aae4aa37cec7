import { tz } from '@date-fns/tz'
import { format } from 'date-fns'
import { CLUB_TIME_ZONE } from '#contract/common'

/** The time zone of this browser ('Europe/Berlin'), or New York's when it cannot tell. */
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || CLUB_TIME_ZONE
  } catch {
    return CLUB_TIME_ZONE
  }
}

function zoneAbbreviation(date: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(
    date,
  )
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone
}

/**
 * The viewer's own wall time for an instant ('Fri, Dec 18, 1:30 AM CET'), or null when it reads
 * the same as in New York (the viewer is there, or in a zone that keeps the same time).
 */
export function localTimeOf(date: Date, timeZone = viewerTimeZone()): string | null {
  const pattern = 'EEE, MMM d, h:mm a'
  const club = format(date, pattern, { in: tz(CLUB_TIME_ZONE) })
  const local = format(date, pattern, { in: tz(timeZone) })
  return club === local ? null : `${local} ${zoneAbbreviation(date, timeZone)}`
}

type ClubTimeProps = {
  /** ISO 8601 instant. */
  startsAt: string
  prettyDate: string
  prettyTime: string
  /** 'date' shows only the day. */
  show?: 'date-time' | 'date'
  className?: string
}

/**
 * A podclub's time: New York's, the club's reference, and beside it the viewer's own when their
 * zone differs.
 */
export function ClubTime({
  startsAt,
  prettyDate,
  prettyTime,
  show = 'date-time',
  className,
}: ClubTimeProps) {
  const date = new Date(startsAt)
  const local = Number.isNaN(date.getTime()) ? null : localTimeOf(date)
  return (
    <span className={className}>
      <time dateTime={startsAt}>
        {show === 'date' ? prettyDate : `${prettyDate} @ ${prettyTime}`}
      </time>
      {local && show === 'date-time' ? (
        <span className="block text-sm text-ink-muted">your time: {local}</span>
      ) : null}
    </span>
  )
}
