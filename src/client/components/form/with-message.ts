import { z } from 'zod'

/**
 * A contract rule asked for in a form's own words: the value is checked by the contract's
 * `schema` (never a copy of its rule), and any problem reads `message`. For fields whose
 * contract schema has no message fit for a person, such as an id typed into a box.
 */
export function withMessage<S extends z.ZodType>(schema: S, message: string) {
  return z.string().transform((value, ctx): z.output<S> => {
    const result = schema.safeParse(value)
    if (result.success) return result.data
    ctx.addIssue({ code: 'custom', message })
    return z.NEVER
  })
}
