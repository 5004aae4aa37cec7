import { useId, type FormEvent } from 'react'
import { createInviteBodySchema } from '#contract/invites'
import { Button } from '#client/components/ui/button'
import { Input } from '#client/components/ui/input'
import { isApiError } from '#client/lib/api-client'
import { toast } from '#client/lib/toast'
import { useSendInvite } from '../api/send-invite'
import { useSchemaForm } from '../hooks/use-schema-form'
import { fieldA11y, FormField, textareaClass } from './form-field'

/** Spec 1 §2 and §5, Invite card: e-mail a friend a way in, with a note. */
export function InviteCard() {
  const id = useId()
  const form = useSchemaForm(createInviteBodySchema.pick({ email: true, note: true }), {
    email: '',
    note: '',
  })
  const invite = useSendInvite()
  const isSubmitting = invite.isPending

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!form.data) return
    const { email, note } = form.data
    // An empty note is left out (the schema turns '' into undefined).
    invite.mutate(
      { email, note },
      {
        onSuccess: () => {
          form.reset()
          // Spec 1 §8 writes the address as 'the configured contact address', the placeholder
          // it uses for every e-mail address; here it is the friend's.
          toast({ title: 'Invitation Sent', description: `Successfully sent invite to ${email}` })
        },
        onError: (error) => {
          form.showServerErrors(error)
          toast({
            title: 'Failed to Send Invite',
            description: isApiError(error) ? error.message : undefined,
            variant: 'destructive',
          })
        },
      },
    )
  }

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
      <FormField id={`${id}-email`} label="Their e-mail" error={form.errorOf('email')}>
        <Input
          {...fieldA11y(`${id}-email`, form.errorOf('email'))}
          type="email"
          autoComplete="off"
          value={form.values.email}
          disabled={isSubmitting}
          onChange={(e) => form.set('email', e.target.value)}
        />
      </FormField>
      <FormField id={`${id}-note`} label="A note from you (optional)" error={form.errorOf('note')}>
        <textarea
          {...fieldA11y(`${id}-note`, form.errorOf('note'))}
          className={textareaClass}
          value={form.values.note}
          disabled={isSubmitting}
          onChange={(e) => form.set('note', e.target.value)}
        />
      </FormField>
      <Button type="submit" disabled={isSubmitting || form.hasErrors || !form.isValid}>
        {isSubmitting ? 'sending...' : '[ send invite ]'}
      </Button>
    </form>
  )
}
