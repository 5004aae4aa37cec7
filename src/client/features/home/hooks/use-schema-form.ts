import { useState } from 'react'
import type { z } from 'zod'
import { isApiError } from '#client/lib/api-client'

/**
 * A small form state for the home cards' two-field forms, checked as the person types against
 * the same contract schema the server uses (its messages are the spec's). Kept this small
 * rather than bringing react-hook-form into the first load of `/` for two short forms.
 */
export function useSchemaForm<S extends z.ZodObject>(
  schema: S,
  initial: Record<keyof z.input<S>, string>,
) {
  type Field = keyof z.input<S> & string
  const [values, setValues] = useState(initial)
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({})
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({})

  const parsed = schema.safeParse(values)
  const clientErrors: Partial<Record<Field, string>> = {}
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as Field
      clientErrors[field] ??= issue.message
    }
  }

  return {
    values,
    isValid: parsed.success,
    data: parsed.success ? (parsed.data as z.output<S>) : undefined,
    /** The message to show under a field: once it has been typed in, or from the server. */
    errorOf: (field: Field) =>
      serverErrors[field] ?? (touched[field] ? clientErrors[field] : undefined),
    hasErrors:
      Object.keys(serverErrors).length > 0 ||
      Object.keys(clientErrors).some((f) => touched[f as Field]),
    set(field: Field, value: string) {
      setValues((v) => ({ ...v, [field]: value }))
      setTouched((t) => ({ ...t, [field]: true }))
      setServerErrors((e) => {
        const { [field]: _gone, ...rest } = e
        return rest as typeof e
      })
    },
    /** Puts a 400's field messages under their fields; returns whether there were any. */
    showServerErrors(error: unknown) {
      if (!isApiError(error)) return false
      const known = Object.fromEntries(
        Object.entries(error.fieldErrors)
          .filter(([field]) => field in initial)
          .map(([field, messages]) => [field, messages[0]]),
      ) as Partial<Record<Field, string>>
      setServerErrors(known)
      return Object.keys(known).length > 0
    },
    reset() {
      setValues(initial)
      setTouched({})
      setServerErrors({})
    },
  }
}
