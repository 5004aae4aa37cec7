import { useId } from 'react'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { toast } from '#client/lib/toast'
import { useSendInvite } from '../api/send-invite'

/**
 * The card's part of the invite call: phone and podclubId stay empty (spec 1 §3). It loads on the
 * member's first key, tap, focus, click or submit in the page (`useContractForm`, decision 011),
 * not with the page's code.
 */
const loadInviteFormSchema = () =>
  import('#contract/invites').then((m) =>
    m.createInviteBodySchema.pick({ email: true, note: true }),
  )

/** Spec 1 §2 and §5, Invite card: e-mail a friend a way in, with a note. */
export function InviteCard() {
  const id = useId()
  // Spec 1 §5: checked as it is typed in.
  const form = useContractForm(loadInviteFormSchema, {
    defaultValues: { email: '', note: '' },
    mode: 'onChange',
  })
  const { errors, isValid } = form.formState
  const hasErrors = Object.keys(errors).length > 0
  const invite = useSendInvite()
  const isSubmitting = invite.isPending

  // An empty note is left out (the schema turns '' into undefined).
  const handleSubmit = form.handleSubmit(({ email, note }) =>
    invite.mutate(
      { email, note },
      {
        onSuccess: () => {
          form.reset()
          // Spec 1 §8 writes the address as 'the configured contact address', the placeholder
          // it uses for every e-mail address; here it is the friend's.
          toast({ title: 'Invitation Sent', description: `Successfully sent invite to ${email}` })
        },
        onError: (error) => showServerError(form, error, { title: 'Failed to Send Invite' }),
      },
    ),
  )

  return (
    <form
      onSubmit={handleSubmit}
      noValidate
      aria-labelledby={`${id}-title`}
      className="grid h-full content-start gap-4 rounded-sm border border-line bg-paper-raised p-6"
    >
      <h2 id={`${id}-title`} className="font-mono text-lg font-semibold">
        invite a friend
      </h2>
      <p className="text-sm text-ink-muted">
        podclub grows one person at a time. We&apos;ll e-mail them a code that works once.
      </p>
      <Field
        label="Their e-mail"
        type="email"
        autoComplete="off"
        disabled={isSubmitting}
        error={errors.email?.message}
        {...form.register('email')}
      />
      <Field
        as="textarea"
        label="A note from you (optional)"
        size="sm"
        disabled={isSubmitting}
        error={errors.note?.message}
        {...form.register('note')}
      />
      {/* Spec 1 §5: disabled while submitting, while errors exist, or while the form is invalid. */}
      <PendingButton
        isPending={isSubmitting}
        pendingLabel="sending..."
        spinner={false}
        disabled={hasErrors || !isValid}
      >
        [ send invite ]
      </PendingButton>
    </form>
  )
}
