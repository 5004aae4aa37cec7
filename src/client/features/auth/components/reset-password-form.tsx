import { useEffect } from 'react'
import { Link } from 'react-router'
import { resetPasswordFormSchema } from '#contract/accounts'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { Spinner } from '#client/components/ui/spinner'
import { isApiError } from '#client/lib/api-client'
import { toast } from '#client/lib/toast'
import { useConfirmPasswordReset } from '../api/confirm-password-reset'
import { useResetToken } from '../api/validate-reset-token'

export const INVALID_TOKEN_TEXT = 'invalid password reset token.'

type ResetPasswordFormProps = {
  token: string
  onSuccess: () => void
}

/** Spec 2 §2 Reset password: the token is checked on load; the form shows only when it works. */
export function ResetPasswordForm({ token, onSuccess }: ResetPasswordFormProps) {
  const check = useResetToken(token)
  const confirm = useConfirmPasswordReset()
  const form = useContractForm(resetPasswordFormSchema, {
    defaultValues: { password: '', confirm: '' },
  })
  const { errors } = form.formState

  const checkError = check.error
  useEffect(() => {
    if (!checkError) return
    toast({
      title: 'Invalid reset token',
      description:
        isApiError(checkError) && checkError.status !== 0 && checkError.message
          ? checkError.message
          : 'Invalid password reset token',
      variant: 'destructive',
    })
  }, [checkError])

  if (check.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 font-mono text-sm text-ink-muted">
        <Spinner /> checking your link…
      </p>
    )
  }
  if (check.isError) {
    return (
      <div className="grid gap-3">
        <p className="font-mono text-danger">{INVALID_TOKEN_TEXT}</p>
        <p className="text-sm text-ink-muted">
          Reset links work once, for one hour.{' '}
          <Link
            to="/forgot-password"
            className="rounded-sm font-mono text-accent underline underline-offset-4 hover:text-accent-strong"
          >
            ask for a new link
          </Link>
        </p>
      </div>
    )
  }

  const handleSubmit = form.handleSubmit(({ password }) =>
    confirm.mutate(
      { password, token },
      {
        onSuccess: () => {
          toast({
            title: 'Password reset successful',
            description: 'Please login with your new password.',
          })
          onSuccess()
        },
        onError: (error) =>
          // Spec 2 §8: the toast reads the first password error, else the general message.
          showServerError(form, error, {
            title: 'Failed to reset password',
            description: (apiError) => apiError.fieldErrors.password?.[0] ?? apiError.message,
          }),
      },
    ),
  )

  // A real form: the Enter key in either field submits it.
  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      aria-busy={confirm.isPending || undefined}
      className="grid max-w-sm gap-5"
    >
      <Field
        label="new password"
        type="password"
        hint="At least 8 characters."
        autoComplete="new-password"
        autoFocus
        error={errors.password?.message}
        {...form.register('password')}
      />
      <Field
        label="confirm password"
        type="password"
        autoComplete="new-password"
        error={errors.confirm?.message}
        {...form.register('confirm')}
      />
      <div>
        <PendingButton isPending={confirm.isPending} pendingLabel="[ saving… ]">
          [ reset password ]
        </PendingButton>
      </div>
    </form>
  )
}
