import { CLUB_TIME_ZONE } from '#contract/club-time-names'

/** The time zone of this browser ('Europe/Berlin'), or New York's when it cannot tell. */
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || CLUB_TIME_ZONE
  } catch {
    return CLUB_TIME_ZONE
  }
}
