import type { ReactNode } from 'react'
import { Label } from '#client/components/ui/label'

/** A label, its control and the message under it, tied together for screen readers. */
export function FormField({
  id,
  label,
  error,
  children,
}: {
  id: string
  label: string
  error?: string
  children: ReactNode
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  )
}

export const fieldA11y = (id: string, error?: string) => ({
  id,
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : undefined,
})

export const textareaClass =
  'min-h-20 w-full rounded-sm border border-line bg-paper-raised px-3 py-2 text-base text-ink placeholder:text-ink-muted/70 disabled:opacity-60 aria-invalid:border-danger sm:text-sm'
