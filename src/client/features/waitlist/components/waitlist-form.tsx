import { createWaitlistEntryBodySchema } from '#contract/accounts'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { toast } from '#client/lib/toast'
import { useJoinWaitlist } from '../api/join-waitlist'

type WaitlistFormProps = { onSuccess: () => void }

export function WaitlistForm({ onSuccess }: WaitlistFormProps) {
  const join = useJoinWaitlist()
  const form = useContractForm(createWaitlistEntryBodySchema, {
    defaultValues: { email: '', how: '', favoritePodcast: '' },
  })
  const { errors } = form.formState

  const handleSubmit = form.handleSubmit((body) =>
    join.mutate(body, {
      onSuccess: () => {
        toast({
          title: "You're on the waitlist!",
          description: "We'll e-mail you an invite code as soon as a spot opens up.",
        })
        onSuccess()
      },
      onError: (error) =>
        showServerError(form, error, {
          title: 'Error!',
          description: (apiError) => `Failed to join the waitlist. ${apiError.message}`,
        }),
    }),
  )

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      aria-busy={join.isPending || undefined}
      className="grid max-w-md gap-5"
    >
      <Field
        label="email"
        type="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        required
        error={errors.email?.message}
        {...form.register('email')}
      />
      <Field
        label="how did you hear about podclub? (optional)"
        autoComplete="off"
        error={errors.how?.message}
        {...form.register('how')}
      />
      <Field
        label="favorite podcast (optional)"
        autoComplete="off"
        error={errors.favoritePodcast?.message}
        {...form.register('favoritePodcast')}
      />
      <div>
        <PendingButton isPending={join.isPending} pendingLabel="[ joining… ]">
          [ join the waitlist ]
        </PendingButton>
      </div>
    </form>
  )
}
