import { useState } from 'react'
import { useWatch } from 'react-hook-form'
import { registerFormSchema, type RegisterForm as RegisterFormValues } from '#contract/accounts'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { isApiError } from '#client/lib/api-client'
import { toast } from '#client/lib/toast'
import { useSignup } from '../api/signup'
import { CodeOfConductDialog } from './code-of-conduct-dialog'

type RegisterFormProps = {
  inviteCode: string
  onSuccess: () => void
  /** The code stopped working between the check and the signup (used by someone else). */
  onCodeRefused: (message: string) => void
}

const EMPTY: RegisterFormValues = {
  username: '',
  email: '',
  city: '',
  source: '',
  password: '',
  confirm: '',
}

const FIELDS = Object.keys(EMPTY) as (keyof RegisterFormValues)[]

/** Spec 2 §2 steps 2–4: the form, the code of conduct, then the account. */
export function RegisterForm({ inviteCode, onSuccess, onCodeRefused }: RegisterFormProps) {
  const [isConductOpen, setIsConductOpen] = useState(false)
  const signup = useSignup()
  const form = useContractForm(registerFormSchema, { defaultValues: EMPTY, mode: 'onTouched' })
  const {
    register,
    formState: { errors },
  } = form
  const values = useWatch({ control: form.control })
  // Spec 2 §5: 'create' stays disabled until every field is non-empty.
  const isComplete = FIELDS.every((field) => (values[field] ?? '') !== '')

  const handleAccept = form.handleSubmit(({ confirm: _confirm, ...account }) =>
    signup.mutate(
      { ...account, inviteCode },
      {
        onSuccess: () => {
          setIsConductOpen(false)
          toast({ title: 'Account Created', description: 'Account created successfully!' })
          onSuccess()
        },
        onError: (error) => {
          setIsConductOpen(false)
          showServerError(form, error, { title: 'Failed to create account' })
          const code = isApiError(error) ? error.code : undefined
          // The code is not on this form: its step takes the visitor back with the reason.
          if (code === 'INVITE_CODE_USED' || code === 'INVALID_INVITE_CODE') {
            onCodeRefused(error.message)
          }
        },
      },
    ),
  )

  function handleDecline() {
    setIsConductOpen(false)
    toast({
      title: 'Registration cancelled',
      description: 'You must accept the code of conduct to join podclub.',
      variant: 'destructive',
    })
  }

  const text = { autoCapitalize: 'none', autoCorrect: 'off', spellCheck: false } as const

  return (
    <>
      <form
        noValidate
        onSubmit={form.handleSubmit(() => setIsConductOpen(true))}
        className="grid max-w-md gap-5"
      >
        <Field
          label="username"
          hint="3–24 lowercase letters, numbers or periods."
          autoComplete="username"
          {...text}
          error={errors.username?.message}
          {...register('username')}
        />
        <Field
          label="email"
          type="email"
          autoComplete="email"
          {...text}
          error={errors.email?.message}
          {...register('email')}
        />
        <Field
          label="city"
          autoComplete="address-level2"
          error={errors.city?.message}
          {...register('city')}
        />
        <Field
          label="how did you find us?"
          autoComplete="off"
          error={errors.source?.message}
          {...register('source')}
        />
        <Field
          label="password"
          type="password"
          hint="At least 8 characters."
          autoComplete="new-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <Field
          label="confirm password"
          type="password"
          autoComplete="new-password"
          error={errors.confirm?.message}
          {...register('confirm')}
        />
        <div>
          {/* The code of conduct dialog shows the request on its way ('creating account…'). */}
          <PendingButton isPending={signup.isPending} spinner={false} disabled={!isComplete}>
            [ create account ]
          </PendingButton>
        </div>
      </form>
      <CodeOfConductDialog
        open={isConductOpen}
        isSubmitting={signup.isPending}
        onAccept={() => void handleAccept()}
        onDecline={handleDecline}
      />
    </>
  )
}
