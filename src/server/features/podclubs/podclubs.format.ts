import { tz } from '@date-fns/tz'
import { format } from 'date-fns'
import { CLUB_TIME_ZONE } from '#contract/common'

const inClubZone = { in: tz(CLUB_TIME_ZONE) }
/** EST or EDT, whichever New York is on at that moment. */
const zoneName = new Intl.DateTimeFormat('en-US', {
  timeZone: CLUB_TIME_ZONE,
  timeZoneName: 'short',
})

/** 'Thursday, December 17, 2026': the day of a podclub in New York. */
export function prettyDate(startsAt: Date): string {
  return format(startsAt, 'EEEE, MMMM d, yyyy', inClubZone)
}

/** '7:30 PM EST' (EDT in summer): the time of a podclub in New York, with its zone. */
export function prettyTime(startsAt: Date): string {
  const zone = zoneName.formatToParts(startsAt).find((p) => p.type === 'timeZoneName')?.value
  return `${format(startsAt, 'h:mm a', inClubZone)} ${zone ?? 'ET'}`
}
