import { useState } from 'react'
import { Link } from 'react-router'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { toast } from '#client/lib/toast'
import { useRequestPasswordReset } from '../api/request-password-reset'

const linkClass = 'rounded-sm font-mono text-sm text-accent underline-offset-4 hover:underline'

/** Loaded once the person starts on the page: its first load carries no zod. */
const loadSchema = () => import('#contract/accounts').then((m) => m.createPasswordResetBodySchema)

export function ForgotPasswordForm() {
  const request = useRequestPasswordReset()
  const [sentTo, setSentTo] = useState<string | null>(null)
  const form = useContractForm(loadSchema, { defaultValues: { email: '' } })

  const handleSubmit = form.handleSubmit((body) =>
    request.mutate(body, {
      onSuccess: () => {
        toast({
          title: 'Reset link sent',
          description: 'Check your email for instructions to reset your password.',
        })
        setSentTo(body.email)
      },
      onError: (error) => showServerError(form, error, { title: 'Failed to send reset link' }),
    }),
  )

  if (sentTo) {
    // The same words whether or not the address has an account: the server does not say.
    return (
      <div role="status" className="grid max-w-md gap-4">
        <p>
          If an account uses <strong className="break-all">{sentTo}</strong>, a link to choose a new
          password is on its way. It works once, for one hour.
        </p>
        <p className="text-sm text-ink-muted">
          Nothing after a few minutes? Look in your spam folder, or{' '}
          <button type="button" className={linkClass} onClick={() => setSentTo(null)}>
            try another address
          </button>
          .
        </p>
        <p>
          <Link to="/login" className={linkClass}>
            back to login
          </Link>
        </p>
      </div>
    )
  }

  return (
    <form
      // Sent by the page's code; were the browser to send it (no scripts), a POST keeps the
      // fields out of the address, and the server answers with the page again.
      method="post"
      noValidate
      onSubmit={handleSubmit}
      aria-busy={request.isPending || undefined}
      className="grid max-w-sm gap-5"
    >
      <p className="text-ink-muted">
        Enter the e-mail address of your account and we will send you a link to choose a new
        password.
      </p>
      <Field
        label="email"
        type="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        error={form.formState.errors.email?.message}
        {...form.register('email')}
      />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <PendingButton isPending={request.isPending} pendingLabel="[ sending… ]">
          [ send reset link ]
        </PendingButton>
        <Link to="/login" className={linkClass}>
          back to login
        </Link>
      </div>
    </form>
  )
}
