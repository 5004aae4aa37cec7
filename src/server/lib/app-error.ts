import { type ErrorCode, errorStatuses } from '#contract/common'

/**
 * A refusal the client should see: its message is shown to the user as it is. Its HTTP status
 * comes from its code (`errorStatuses` in the contract), so one kind of refusal always answers
 * the same status whoever throws it.
 */
export class AppError extends Error {
  readonly statusCode: number

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'AppError'
    this.statusCode = errorStatuses[code]
  }
}

export const notFound = (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found`)
export const forbidden = () =>
  new AppError('FORBIDDEN', 'You do not have permission to perform this action')
export const notAuthenticated = () =>
  new AppError('NOT_AUTHENTICATED', 'Authentication credentials were not provided.')

/** Validation-shaped refusal (`{ field: [messages] }`) for rules only the database can check. */
export class FieldErrors extends Error {
  constructor(readonly fields: Record<string, string[]>) {
    super('field errors')
    this.name = 'FieldErrors'
  }
}
