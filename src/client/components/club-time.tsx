import { CLUB_TIME_ZONE, viewerTimeOf } from '#contract/club-time'
import { useIsHydrated } from '#client/lib/hydration'

/** The time zone of this browser ('Europe/Berlin'), or New York's when it cannot tell. */
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || CLUB_TIME_ZONE
  } catch {
    return CLUB_TIME_ZONE
  }
}

/**
 * This viewer's own wall time for an instant ('Fri, Dec 18, 1:30 AM CET'), or null when it reads
 * the same as in New York.
 */
export function localTimeOf(date: Date): string | null {
  return viewerTimeOf(date, viewerTimeZone())
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
 * zone differs. The server does not know the viewer's zone: the viewer's line comes once the
 * browser has taken the page over.
 */
export function ClubTime({
  startsAt,
  prettyDate,
  prettyTime,
  show = 'date-time',
  className,
}: ClubTimeProps) {
  const isHydrated = useIsHydrated()
  const date = new Date(startsAt)
  const local = !isHydrated || Number.isNaN(date.getTime()) ? null : localTimeOf(date)
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
