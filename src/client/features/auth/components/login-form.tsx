import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import { Link } from 'react-router'
import { createLoginBodySchema, type CreateLoginBody } from '#contract/auth'
import { Button } from '#client/components/ui/button'
import { Input } from '#client/components/ui/input'
import { Label } from '#client/components/ui/label'
import { Spinner } from '#client/components/ui/spinner'
import { toast } from '#client/lib/toast'
import { useLogin } from '../api/login'

type Field = keyof CreateLoginBody
type FieldErrors = Partial<Record<Field, string>>

const EMPTY: CreateLoginBody = { username: '', password: '' }

type LoginFormProps = {
  onSuccess: () => void
}

// Two fields do not need a form library: controlled state, checked with the contract's schema.
export function LoginForm({ onSuccess }: LoginFormProps) {
  const id = useId()
  const [values, setValues] = useState<CreateLoginBody>(EMPTY)
  const [errors, setErrors] = useState<FieldErrors>({})
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({})
  const login = useLogin()
  // A failure toast from an earlier try would otherwise linger over the screen after login.
  const failureToast = useRef<{ dismiss: () => void } | null>(null)

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const field = event.target.name as Field
    const { value } = event.target
    setValues((current) => ({ ...current, [field]: value }))
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }))
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (login.isPending) return

    const parsed = createLoginBodySchema.safeParse(values)
    if (!parsed.success) {
      const next: FieldErrors = {}
      for (const issue of parsed.error.issues) {
        const field = issue.path[0]
        if ((field === 'username' || field === 'password') && !next[field]) {
          next[field] = issue.message
        }
      }
      setErrors(next)
      inputs.current[next.username ? 'username' : 'password']?.focus()
      return
    }

    setErrors({})
    login.mutate(parsed.data, {
      onSuccess: () => {
        failureToast.current?.dismiss()
        onSuccess()
      },
      onError: (error) => {
        failureToast.current = toast({
          title: 'Failed to login',
          description: error.message,
          variant: 'destructive',
        })
        // Spec 2: on failure the form is cleared.
        setValues(EMPTY)
        inputs.current.username?.focus()
      },
    })
  }

  const fields: { name: Field; label: string; type: string; autoComplete: string }[] = [
    { name: 'username', label: 'username', type: 'text', autoComplete: 'username' },
    { name: 'password', label: 'password', type: 'password', autoComplete: 'current-password' },
  ]

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      aria-busy={login.isPending || undefined}
      className="grid max-w-sm gap-5"
    >
      {fields.map((field) => {
        const inputId = `${id}-${field.name}`
        const errorId = `${inputId}-error`
        const error = errors[field.name]
        return (
          <div key={field.name} className="grid gap-2">
            <Label htmlFor={inputId}>{field.label}</Label>
            <Input
              ref={(element) => {
                inputs.current[field.name] = element
              }}
              id={inputId}
              name={field.name}
              type={field.type}
              autoComplete={field.autoComplete}
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              required
              value={values[field.name]}
              onChange={handleChange}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
            {error ? (
              <p id={errorId} className="text-sm text-danger">
                {error}
              </p>
            ) : null}
          </div>
        )
      })}

      <div className="flex flex-wrap items-center justify-between gap-4">
        <Button type="submit" disabled={login.isPending}>
          {login.isPending ? (
            <>
              <Spinner />[ logging in… ]
            </>
          ) : (
            '[ login ]'
          )}
        </Button>
        <Link
          to="/forgot-password"
          className="rounded-sm font-mono text-sm text-accent underline-offset-4 hover:underline"
        >
          forgot password?
        </Link>
      </div>
    </form>
  )
}
