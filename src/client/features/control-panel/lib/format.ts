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
