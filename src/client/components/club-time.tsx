import { CLUB_TIME_ZONE, viewerTimeOf } from '#contract/club-time'
import { useEffect, useState } from 'react'

/** The time zone of this browser ('Europe/Berlin'), or New York's when it cannot tell. */
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || CLUB_TIME_ZONE
  } catch {
    return CLUB_TIME_ZONE
  }
}

/**
 * This browser's time zone, or null until it is known. The server does not know it, so a page
 * the server drew shows it once the browser has taken over; and its first reading starts Intl's
 * locale data, a long task on a phone, so it waits for a task of its own instead of lengthening
 * the one that takes the page over.
 */
function useViewerTimeZone(): string | null {
  const [zone, setZone] = useState<string | null>(null)
  useEffect(() => {
    const timer = setTimeout(() => setZone(viewerTimeZone()))
    return () => clearTimeout(timer)
  }, [])
  return zone
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
 * zone differs (once known: `useViewerTimeZone`).
 */
export function ClubTime({
  startsAt,
  prettyDate,
  prettyTime,
  show = 'date-time',
  className,
}: ClubTimeProps) {
  const zone = useViewerTimeZone()
  const date = new Date(startsAt)
  const local = !zone || Number.isNaN(date.getTime()) ? null : viewerTimeOf(date, zone)
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
