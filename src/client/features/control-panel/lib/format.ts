// Per-function entry: the package's index makes test runs load every function.
import { format } from 'date-fns/format'
import { enUS } from 'date-fns/locale/en-US'

/** Spec 2: the e-mail activity date, a US medium date with a short time ('Nov 23, 2026, 7:05 PM'). */
export function formatActivityDate(iso: string) {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : format(date, 'PPp', { locale: enUS })
}

/** A short US date for the lists ('Nov 23, 2026'). */
export function formatListDate(iso: string) {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : format(date, 'PP', { locale: enUS })
}

/**
 * A `datetime-local` value ('2026-12-01T19:00') as the API's 'MM/DD/YYYY HH:mm' in New York
 * time; the field is labelled as New York time, so no conversion happens here.
 */
export function toClubDateTime(local: string) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local)
  if (!match) return undefined
  const [, year, month, day, hour, minute] = match
  return `${month}/${day}/${year} ${hour}:${minute}`
}
