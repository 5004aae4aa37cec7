import { z } from 'zod'
import { registerAdminParamsSchema } from '#contract/control-panel'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { withMessage } from '#client/components/form/with-message'
import { toast } from '#client/lib/toast'
import { useQuickRegister } from '../api/operator-calls'
import { podclubIdInput } from '../lib/podclub-id-input'

const quickRegistrationFormSchema = z.object({
  podclubId: podclubIdInput,
  username: withMessage(registerAdminParamsSchema.shape.username, 'Enter a username'),
})

/** Quick Registration (spec 2 §2): a podclub ID number and a username, then Register. */
export function QuickRegistrationForm() {
  const form = useContractForm(quickRegistrationFormSchema, {
    defaultValues: { podclubId: '', username: '' },
  })
  const { errors } = form.formState
  const register = useQuickRegister()

  const handleSubmit = form.handleSubmit((body) =>
    register.mutate(body, {
      onSuccess: () => {
        toast({ title: 'User registered for podclub' })
        form.reset()
      },
      onError: (error) => showServerError(form, error, { title: 'Registration failed' }),
    }),
  )

  return (
    <form
      noValidate
      aria-label="Quick Registration"
      onSubmit={handleSubmit}
      className="grid gap-4 rounded-sm border border-line p-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
    >
      <Field
        label="podclub ID number"
        type="number"
        inputMode="numeric"
        min={1}
        error={errors.podclubId?.message}
        {...form.register('podclubId')}
      />
      <Field
        label="Username"
        autoComplete="off"
        error={errors.username?.message}
        {...form.register('username')}
      />
      {/* Level with the inputs: below the labels' line and the gap under it. */}
      <PendingButton isPending={register.isPending} className="sm:mt-7">
        Register
      </PendingButton>
    </form>
  )
}
