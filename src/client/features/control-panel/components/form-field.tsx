import type { ReactNode } from 'react'
import { Input } from '#client/components/ui/input'
import { Label } from '#client/components/ui/label'

const areaClass =
  'w-full rounded-sm border border-line bg-paper-raised p-3 text-base text-ink placeholder:text-ink-muted/70 aria-invalid:border-danger sm:text-sm'

type FieldProps = {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  error?: string
  multiline?: boolean
  type?: string
  placeholder?: string
  children?: ReactNode
}

/** A labelled input or text area of an operator form, with its error under it. */
export function FormField({ id, label, value, onChange, error, multiline, ...rest }: FieldProps) {
  const describedBy = error ? `${id}-error` : undefined
  const common = {
    id,
    value,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    placeholder: rest.placeholder,
  }
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      {multiline ? (
        <textarea
          {...common}
          rows={3}
          className={areaClass}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <Input {...common} type={rest.type ?? 'text'} onChange={(e) => onChange(e.target.value)} />
      )}
      {error ? (
        <p id={describedBy} className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** The first message of each field of a failed zod parse. */
export function firstErrors(issues: { path: PropertyKey[]; message: string }[]) {
  const errors: Record<string, string> = {}
  for (const issue of issues) {
    const key = issue.path.map(String).join('.')
    errors[key] ??= issue.message
  }
  return errors
}
