import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useMemo } from 'react'
import { useForm, type FieldValues, type Resolver, type UseFormProps } from 'react-hook-form'
import type { z } from 'zod'

type FormSchema = z.ZodType<unknown, FieldValues>

/**
 * A form's schema, or a function that loads it (`() => import(...)`): a server-rendered screen's
 * form passes the loader, so that the page's first load carries no zod and the page runs sooner
 * on a slow phone. The schema then loads on the person's first key, tap or focus anywhere in the
 * page, and a check that comes first waits for it.
 */
export type SchemaSource<S extends FormSchema> = S | (() => Promise<S>)

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
  schema: SchemaSource<S>,
  options: ContractFormOptions<S> = {},
) {
  type Values = z.input<S>
  type FormResolver = Resolver<Values, unknown, z.output<S>>
  const { resolver, load } = useMemo(() => {
    if (typeof schema !== 'function') {
      return { resolver: zodResolver(schema) as FormResolver, load: null }
    }
    let loading: Promise<FormResolver> | undefined
    const load = () => (loading ??= schema().then((loaded) => zodResolver(loaded) as FormResolver))
    const resolver: FormResolver = async (values, context, resolve) =>
      (await load())(values, context, resolve)
    return { resolver, load }
  }, [schema])

  useEffect(() => {
    if (!load) return
    const events = ['pointerdown', 'keydown', 'focusin'] as const
    const start = () => {
      for (const event of events) window.removeEventListener(event, start, true)
      void load()
    }
    for (const event of events) window.addEventListener(event, start, true)
    return () => {
      for (const event of events) window.removeEventListener(event, start, true)
    }
  }, [load])

  return useForm<Values, unknown, z.output<S>>({ ...options, resolver })
}
