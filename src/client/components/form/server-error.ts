import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form'
import type { ErrorCode } from '#contract/common'
import { ApiError, DEFAULT_ERROR_MESSAGE, isApiError } from '#client/lib/api-client'
import { toast } from '#client/lib/toast'

export type ServerErrorOptions<T extends FieldValues> = {
  /** The toast's title, the spec's words for this form ('Failed to Send Invite'). */
  title: string
  /** The toast's text when it is not the error's message (the global rules of spec 1 and 2 §8). */
  description?: (error: ApiError) => string
  /** The form's name of an API field where the two differ (`scheduledStart` → `startsAt`). */
  fields?: Partial<Record<string, FieldPath<T>>>
  /** Error codes that are about one field, put under it with the error's message. */
  codes?: Partial<Record<ErrorCode, FieldPath<T>>>
}

/**
 * A failed submit, the one way: each field message of a 400 (`{ field: [messages] }`, CONTRACT.md)
 * goes under its field, the first of them in the form's order taking the focus, and the error's
 * message goes to a destructive toast. Messages of fields the form does not show are in the
 * toast only. Returns the toast, so a form can take it away after a later success.
 */
export function showServerError<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'setError' | 'getValues'>,
  error: unknown,
  options: ServerErrorOptions<T>,
) {
  // Everything the api-client throws is an ApiError; anything else is a bug whose text is not
  // for people to read.
  const apiError = isApiError(error)
    ? error
    : new ApiError({ status: 0, message: DEFAULT_ERROR_MESSAGE, cause: error })

  const order = Object.keys(form.getValues())
  const known = (name: string) => (order.includes(name) ? (name as FieldPath<T>) : undefined)
  const placed = new Map<FieldPath<T>, string>()
  for (const [name, messages] of Object.entries(apiError.fieldErrors)) {
    const field = options.fields?.[name] ?? known(name)
    if (field && messages[0] && !placed.has(field)) placed.set(field, messages[0])
  }
  const codeField = apiError.code ? options.codes?.[apiError.code] : undefined
  if (codeField && !placed.has(codeField)) placed.set(codeField, apiError.message)

  const rootOf = (field: string) => field.split('.')[0] ?? field
  const inFormOrder = [...placed].sort(
    ([a], [b]) => order.indexOf(rootOf(a)) - order.indexOf(rootOf(b)),
  )
  inFormOrder.forEach(([field, message], index) =>
    form.setError(field, { type: 'server', message }, { shouldFocus: index === 0 }),
  )

  return toast({
    title: options.title,
    description: options.description?.(apiError) ?? apiError.message,
    variant: 'destructive',
  })
}

/**
 * A message about the form as a whole: a contract rule over several fields reports itself
 * under `non_field_errors` (CONTRACT.md), which is no field of the form.
 */
export function formErrorOf(errors: Record<string, unknown>): string | undefined {
  const error = errors.non_field_errors as { message?: unknown } | undefined
  return typeof error?.message === 'string' ? error.message : undefined
}
