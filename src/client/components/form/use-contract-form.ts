import { zodResolver } from '@hookform/resolvers/zod'
import { useMemo } from 'react'
import { useForm, type FieldValues, type UseFormProps } from 'react-hook-form'
import type { z } from 'zod'

type FormSchema = z.ZodType<unknown, FieldValues>

export type ContractFormOptions<S extends FormSchema> = Omit<
  UseFormProps<z.input<S>, unknown, z.output<S>>,
  'resolver'
>

/**
 * The one way a form of ours holds its state: react-hook-form, checked by a zod schema from the
 * contract (narrowed with `.pick()`, `.omit()` or `.extend()` where the form differs from the
 * body), so the page shows the server's own messages. `handleSubmit` hands over the parsed
 * output: trimmed, defaults filled in, ready to send.
 */
export function useContractForm<S extends FormSchema>(
  schema: S,
  options: ContractFormOptions<S> = {},
) {
  const resolver = useMemo(() => zodResolver(schema), [schema])
  return useForm<z.input<S>, unknown, z.output<S>>({ ...options, resolver })
}
