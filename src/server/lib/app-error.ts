import type { ErrorCode } from '#contract/common'

/** A refusal the client should see: its message is shown to the user as it is. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly statusCode: number,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'AppError'
  }
}

export const notFound = (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found`, 404)
export const forbidden = () =>
  new AppError('FORBIDDEN', 'You do not have permission to perform this action', 403)
export const notAuthenticated = () =>
  new AppError('NOT_AUTHENTICATED', 'Authentication credentials were not provided.', 401)

/** Validation-shaped refusal (`{ field: [messages] }`) for rules only the database can check. */
export class FieldErrors extends Error {
  constructor(readonly fields: Record<string, string[]>) {
    super('field errors')
    this.name = 'FieldErrors'
  }
}
