import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { createWaitlistEntryBodySchema, type CreateWaitlistEntryBody } from '#contract/accounts'
import { Button } from '#client/components/ui/button'
import { FormField } from '#client/components/ui/form-field'
import { Spinner } from '#client/components/ui/spinner'
import { toast } from '#client/lib/toast'
import { useJoinWaitlist } from '../api/join-waitlist'

type WaitlistFormProps = { onSuccess: () => void }

type Values = z.output<typeof createWaitlistEntryBodySchema>

export function WaitlistForm({ onSuccess }: WaitlistFormProps) {
  const join = useJoinWaitlist()
  const form = useForm<CreateWaitlistEntryBody, unknown, Values>({
    resolver: zodResolver(createWaitlistEntryBodySchema),
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
        toast({
          title: 'Error!',
          description: `Failed to join the waitlist. ${error.message}`,
          variant: 'destructive',
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
      <FormField
        label="email"
        type="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        required
        error={errors.email?.message}
        {...form.register('email')}
      />
      <FormField
        label="how did you hear about podclub? (optional)"
        autoComplete="off"
        error={errors.how?.message}
        {...form.register('how')}
      />
      <FormField
        label="favorite podcast (optional)"
        autoComplete="off"
        error={errors.favoritePodcast?.message}
        {...form.register('favoritePodcast')}
      />
      <div>
        <Button type="submit" disabled={join.isPending}>
          {join.isPending ? (
            <>
              <Spinner />[ joining… ]
            </>
          ) : (
            '[ join the waitlist ]'
          )}
        </Button>
      </div>
    </form>
  )
}
