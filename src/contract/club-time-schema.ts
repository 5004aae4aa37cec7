import { CLUB_TIME_MESSAGES } from './club-time-names'
import { isInFuture, readClubDateTime } from './club-time'
import { textSchema } from './common'

/*
 * The schema of a club date and time typed in a form: apart from club-time.ts, so a screen that
 * only shows a time (a podclub's page) loads the date library without the schemas' one.
 */

/**
 * A club date and time typed by a person: required, `MM/DD/YYYY HH:mm` in New York (or, with
 * `iso`, ISO 8601 with an offset), a time that exists; with `now`, after it; and whatever else
 * `rule` asks of it (its message, or null when it passes).
 */
export function clubDateTimeSchema(
  opts: {
    now?: () => Date
    iso?: boolean
    /** Said of a value that is no date and time, instead of `CLUB_TIME_MESSAGES.invalid`. */
    invalid?: string
    rule?: (date: Date, value: string) => string | null
  } = {},
) {
  return textSchema({ error: CLUB_TIME_MESSAGES.required })
    .trim()
    .min(1, CLUB_TIME_MESSAGES.required)
    .superRefine((value, ctx) => {
      const fail = (message: string) => ctx.addIssue({ code: 'custom', message })
      if (value === '') return
      const reading = readClubDateTime(value, { iso: opts.iso })
      if (reading.error === 'invalid') return fail(opts.invalid ?? CLUB_TIME_MESSAGES.invalid)
      if (reading.error) return fail(CLUB_TIME_MESSAGES[reading.error])
      if (opts.now && !isInFuture(reading.date, opts.now())) return fail(CLUB_TIME_MESSAGES.past)
      const broken = opts.rule?.(reading.date, value)
      if (broken) fail(broken)
    })
}
