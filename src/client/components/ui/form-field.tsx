import { useId, type ComponentProps, type ReactNode } from 'react'
import { cn } from '#client/lib/cn'
import { Input } from './input'
import { Label } from './label'

type FormFieldProps = ComponentProps<'input'> & {
  label: ReactNode
  /** The field's error message, announced with the field. */
  error?: string
  /** A short help text under the label. */
  hint?: ReactNode
}

/**
 * A labelled input with its hint and error tied to it (aria-describedby), so screen readers read
 * them with the field. Works with react-hook-form's `register()`, ref included.
 */
export function FormField({ label, error, hint, id, className, ...inputProps }: FormFieldProps) {
  const generated = useId()
  const inputId = id ?? generated
  const hintId = `${inputId}-hint`
  const errorId = `${inputId}-error`
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ')
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={inputId}>{label}</Label>
      {hint ? (
        <p id={hintId} className="-mt-1 text-sm text-ink-muted">
          {hint}
        </p>
      ) : null}
      <Input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...inputProps}
      />
      {error ? (
        <p id={errorId} className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  )
}
