/*
 * The club's time zone by name, and the words its rules use: no code, so a screen that only
 * names the zone (the about page) does not load the date library with club-time.ts.
 */

/** The time zone every podclub is scheduled and shown in. */
export const CLUB_TIME_ZONE = 'America/New_York'

/** How a rule states the club's time zone: 'all times are in Eastern Time (ET)'. */
export const CLUB_TIME_NAME = 'Eastern Time (ET)'
/** The same, where a label has room for the abbreviation only: 'time (ET)'. */
export const CLUB_TIME_ABBREVIATION = 'ET'

/** `MM/DD/YYYY HH:mm`, 24-hour: how a person types a club time (CONTRACT.md). */
export const CLUB_DATE_TIME_FORMAT = 'MM/dd/yyyy HH:mm'

export const CLUB_TIME_MESSAGES = {
  /** The spec's message for a missing date and time. */
  required: 'Please select a date and time',
  invalid: `Enter the date and time as MM/DD/YYYY HH:mm, in ${CLUB_TIME_NAME}`,
  noSuchTime: 'That time does not exist in New York on that day (clocks change)',
  past: 'Date must be in the future',
} as const
