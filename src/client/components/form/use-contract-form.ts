import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useMemo } from 'react'
import { useForm, type FieldValues, type Resolver, type UseFormProps } from 'react-hook-form'
import type { z } from 'zod'

type FormSchema = z.ZodType<unknown, FieldValues>

/**
 * A form's schema, or a function that loads it (`() => import(...)`): a form on a server-rendered
 * screen passes the loader, so that the page's first load carries no zod and the page runs sooner
 * on a slow phone. The schema then loads on the person's first key, tap, focus, click or submit
 * anywhere in the page, and a check waits for it. The check react-hook-form runs as the form
 * mounts (`isValid`) waits for that too, rather than loading the schema itself: until then the
 * form counts as not yet valid, which an untouched form with a required field is.
 */
export type SchemaSource<S extends FormSchema> = S | (() => Promise<S>)

export type ContractFormOptions<S extends FormSchema> = Omit<
  UseFormProps<z.input<S>, unknown, z.output<S>>,
  'resolver'
>

/**
 * A resolver that waits for the one `loadResolver` gives, and `load`, which starts loading it
 * (once, however often it is called).
 */
function resolverOnceLoaded<V extends FieldValues, O>(
  loadResolver: () => Promise<Resolver<V, unknown, O>>,
): { resolver: Resolver<V, unknown, O>; load: () => void } {
  let start = () => {}
  const loaded = new Promise<void>((resolve) => {
    start = resolve
  }).then(loadResolver)
  const resolver: Resolver<V, unknown, O> = async (values, context, options) =>
    (await loaded)(values, context, options)
  return { resolver, load: () => start() }
}

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
    return resolverOnceLoaded(() => schema().then((loaded) => zodResolver(loaded) as FormResolver))
  }, [schema])

  useEffect(() => {
    if (!load) return
    // A click or submit too: assistive technology may press a button with neither key nor focus.
    const events = ['pointerdown', 'keydown', 'focusin', 'click', 'submit'] as const
    const start = () => {
      for (const event of events) window.removeEventListener(event, start, true)
      load()
    }
    for (const event of events) window.addEventListener(event, start, true)
    return () => {
      for (const event of events) window.removeEventListener(event, start, true)
    }
  }, [load])

  return useForm<Values, unknown, z.output<S>>({ ...options, resolver })
}
