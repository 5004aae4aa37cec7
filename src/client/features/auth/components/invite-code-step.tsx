import { useEffect, useRef } from 'react'
import { Link } from 'react-router'
import { validateInviteCodeBodySchema } from '#contract/auth'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { useValidateInviteCode } from '../api/validate-invite-code'

export const INVITE_CODE_FAILED = 'Failed to validate invite code'

type InviteCodeStepProps = {
  /** The code from /register/:code, checked at once when present. */
  initialCode?: string
  /** A refusal that sent the visitor back here (a code used up meanwhile). */
  initialError?: string
  /** Check `initialCode` at once (it came with the link), rather than waiting for a click. */
  checkOnMount?: boolean
  onValid: (code: string) => void
}

/** Spec 2 §2 step 1: the server checks the code before the form shows. */
export function InviteCodeStep({
  initialCode = '',
  initialError,
  checkOnMount = false,
  onValid,
}: InviteCodeStepProps) {
  const validate = useValidateInviteCode()
  const form = useContractForm(validateInviteCodeBodySchema, {
    defaultValues: { code: initialCode },
  })
  const {
    formState: { errors },
  } = form

  const check = (code: string) =>
    validate.mutate(code, {
      onSuccess: () => onValid(code),
      onError: (error) => {
        showServerError(form, error, { title: 'Invalid invite code' })
        // Spec 2 §8: whatever the reason, the field itself says the check failed.
        form.setError('code', { message: INVITE_CODE_FAILED }, { shouldFocus: true })
      },
    })

  // A code in the link (a QR code, an invite e-mail) is checked without a click.
  const checkedFromLink = useRef(false)
  useEffect(() => {
    if (initialError) {
      form.setError('code', { message: initialError }, { shouldFocus: true })
      return
    }
    if (!checkOnMount || !initialCode.trim() || checkedFromLink.current) return
    checkedFromLink.current = true
    check(initialCode.trim())
    // Runs once for the code the page opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(({ code }) => check(code))}
      aria-busy={validate.isPending || undefined}
      className="grid max-w-sm gap-5"
    >
      <p className="text-ink-muted">
        podclub is invite-only. Enter the code a member gave you, or the one from the link you
        followed.
      </p>
      <Field
        label="invite code"
        autoComplete="off"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        error={errors.code?.message}
        {...form.register('code')}
      />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <PendingButton isPending={validate.isPending} pendingLabel="[ checking… ]">
          [ continue ]
        </PendingButton>
        <Link
          to="/waitlist"
          className="rounded-sm font-mono text-sm text-accent underline-offset-4 hover:underline"
        >
          no code? join the waitlist
        </Link>
      </div>
    </form>
  )
}
