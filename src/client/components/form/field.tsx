import { useId, type ComponentProps, type ReactNode } from 'react'
import { Input } from '#client/components/ui/input'
import { Label } from '#client/components/ui/label'
import { Textarea, type TextareaProps } from '#client/components/ui/textarea'
import { cn } from '#client/lib/cn'

const selectClass =
  'h-10 w-full rounded-sm border border-line bg-paper-raised px-3 text-base text-ink disabled:opacity-60 aria-invalid:border-danger sm:text-sm'

type ControlProps =
  | ({ as?: 'input' } & ComponentProps<'input'>)
  | ({ as: 'textarea' } & TextareaProps)
  | ({ as: 'select' } & ComponentProps<'select'>)

export type FieldProps = ControlProps & {
  label: ReactNode
  /** A short help text under the label, read with the field. */
  hint?: ReactNode
  /** The field's error message, read with the field and marking it invalid. */
  error?: string
  /** Keeps the label for screen readers only, where the placeholder says it on screen. */
  hideLabel?: boolean
  /**
   * Classes added to the control itself (they add to its own, never replace them: a text area's
   * height goes by its `size`); `className` places the whole field in its form.
   */
  controlClassName?: string
}

/**
 * A labelled input, text area or select with its hint and error tied to it (`aria-invalid`,
 * `aria-describedby`), so a screen reader reads them with the field. Every prop besides its
 * own goes to the control, so `{...form.register('email')}` (ref included) can be spread in.
 */
export function Field(props: FieldProps) {
  const {
    as = 'input',
    label,
    hint,
    error,
    hideLabel = false,
    className,
    controlClassName,
    id,
    ...control
  } = props
  const generated = useId()
  const controlId = id ?? generated
  const hintId = `${controlId}-hint`
  const errorId = `${controlId}-error`
  const describedBy = cn(control['aria-describedby'], hint && hintId, error && errorId)
  const shared = {
    id: controlId,
    'aria-invalid': error ? true : control['aria-invalid'],
    'aria-describedby': describedBy || undefined,
  }

  return (
    <div className={cn('grid content-start gap-2', className)}>
      <Label htmlFor={controlId} className={hideLabel ? 'sr-only' : undefined}>
        {label}
      </Label>
      {hint ? (
        <p id={hintId} className="-mt-1 text-sm text-ink-muted">
          {hint}
        </p>
      ) : null}
      {as === 'textarea' ? (
        <Textarea {...(control as TextareaProps)} {...shared} className={controlClassName} />
      ) : as === 'select' ? (
        <select
          {...(control as ComponentProps<'select'>)}
          {...shared}
          className={cn(selectClass, controlClassName)}
        />
      ) : (
        <Input {...(control as ComponentProps<'input'>)} {...shared} className={controlClassName} />
      )}
      <FieldError id={errorId} message={error} />
    </div>
  )
}

/**
 * An error message under a field or a group of fields; the control or group points at `id`
 * with `aria-describedby`. Renders nothing without a message.
 */
export function FieldError({
  id,
  message,
  className,
}: {
  id: string
  message: string | undefined
  className?: string
}) {
  return message ? (
    <p id={id} className={cn('text-sm text-danger', className)}>
      {message}
    </p>
  ) : null
}
