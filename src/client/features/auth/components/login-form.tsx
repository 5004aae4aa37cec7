import { useState } from 'react'
import { Link } from 'react-router'
import type { CreateLoginBody } from '#contract/auth'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { useLogin } from '../api/login'

const EMPTY: CreateLoginBody = { username: '', password: '' }
/** Loaded once the person starts on the page: the login page's first load carries no zod. */
const loadLoginSchema = () => import('#contract/auth').then((m) => m.createLoginBodySchema)

type LoginFormProps = {
  onSuccess: () => void
}

export function LoginForm({ onSuccess }: LoginFormProps) {
  const login = useLogin()
  const form = useContractForm(loadLoginSchema, { defaultValues: EMPTY })
  const { errors } = form.formState
  // A failure toast from an earlier try would otherwise linger over the screen after login.
  const [failureToast, setFailureToast] = useState<{ dismiss: () => void }>()

  const handleSubmit = form.handleSubmit((body) =>
    login.mutate(body, {
      onSuccess: () => {
        failureToast?.dismiss()
        onSuccess()
      },
      onError: (error) => {
        // Spec 2: on failure the form is cleared.
        form.reset()
        form.setFocus('username')
        setFailureToast(showServerError(form, error, { title: 'Failed to login' }))
      },
    }),
  )

  const text = { autoCapitalize: 'none', autoCorrect: 'off', spellCheck: false } as const

  return (
    <form
      // Sent by the page's code; were the browser to send it (no scripts), a POST keeps the
      // fields out of the address, and the server answers with the page again.
      method="post"
      noValidate
      onSubmit={handleSubmit}
      aria-busy={login.isPending || undefined}
      className="grid max-w-sm gap-5"
    >
      <Field
        label="username"
        autoComplete="username"
        required
        {...text}
        error={errors.username?.message}
        {...form.register('username')}
      />
      <Field
        label="password"
        type="password"
        autoComplete="current-password"
        required
        {...text}
        error={errors.password?.message}
        {...form.register('password')}
      />

      <div className="flex flex-wrap items-center justify-between gap-4">
        <PendingButton isPending={login.isPending} pendingLabel="[ logging in… ]">
          [ login ]
        </PendingButton>
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
