import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { registerFormSchema, type RegisterForm as RegisterFormValues } from '#contract/accounts'
import { Button } from '#client/components/ui/button'
import { FormField } from '#client/components/ui/form-field'
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
  const form = useForm<RegisterFormValues>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: EMPTY,
    mode: 'onTouched',
  })
  const {
    register,
    formState: { errors },
  } = form
  const values = useWatch({ control: form.control })
  // Spec 2 §5: 'create' stays disabled until every field is non-empty.
  const isComplete = FIELDS.every((field) => (values[field] ?? '') !== '')

  function handleAccept() {
    const { confirm: _confirm, ...account } = registerFormSchema.parse(form.getValues())
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
          toast({
            title: 'Failed to create account',
            description: error.message,
            variant: 'destructive',
          })
          if (!isApiError(error)) return
          if (error.code === 'INVITE_CODE_USED' || error.code === 'INVALID_INVITE_CODE') {
            onCodeRefused(error.message)
            return
          }
          let focused = false
          for (const field of FIELDS) {
            const message = error.fieldErrors[field]?.[0]
            if (!message) continue
            form.setError(field, { message }, { shouldFocus: !focused })
            focused = true
          }
        },
      },
    )
  }

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
        <FormField
          label="username"
          hint="3–24 lowercase letters, numbers or periods."
          autoComplete="username"
          {...text}
          error={errors.username?.message}
          {...register('username')}
        />
        <FormField
          label="email"
          type="email"
          autoComplete="email"
          {...text}
          error={errors.email?.message}
          {...register('email')}
        />
        <FormField
          label="city"
          autoComplete="address-level2"
          error={errors.city?.message}
          {...register('city')}
        />
        <FormField
          label="how did you find us?"
          autoComplete="off"
          error={errors.source?.message}
          {...register('source')}
        />
        <FormField
          label="password"
          type="password"
          hint="At least 8 characters."
          autoComplete="new-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <FormField
          label="confirm password"
          type="password"
          autoComplete="new-password"
          error={errors.confirm?.message}
          {...register('confirm')}
        />
        <div>
          <Button type="submit" disabled={!isComplete || signup.isPending}>
            [ create account ]
          </Button>
        </div>
      </form>
      <CodeOfConductDialog
        open={isConductOpen}
        isSubmitting={signup.isPending}
        onAccept={handleAccept}
        onDecline={handleDecline}
      />
    </>
  )
}
