import { useState, type ChangeEvent } from 'react'
import { updateChatlogBodySchema } from '#contract/control-panel'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { toast } from '#client/lib/toast'
import { useUpdateChatlog } from '../api/update-chatlog'
import { podclubIdInput } from '../lib/podclub-id-input'

const chatlogFormSchema = updateChatlogBodySchema.extend({
  id: podclubIdInput,
  // The server would save an empty log; the form asks for one instead.
  chatlog: updateChatlogBodySchema.shape.chatlog.refine(
    (chatlog) => chatlog.trim() !== '',
    'Paste the chat log or choose its file',
  ),
})

/** The Zoom chat log of a podclub, pasted or read from the saved file in the page. */
export function ChatlogForm() {
  const form = useContractForm(chatlogFormSchema, { defaultValues: { id: '', chatlog: '' } })
  const { errors } = form.formState
  // A new key empties the file input after a save (its value cannot be set by script).
  const [fileKey, setFileKey] = useState(0)
  const save = useUpdateChatlog()

  async function handleFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    if (!file) return
    try {
      form.setValue('chatlog', await file.text())
      form.clearErrors('chatlog')
    } catch {
      form.setError('chatlog', { message: 'That file could not be read' })
    }
  }

  const handleSubmit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (row) => {
        toast({ title: 'Chat log saved', description: `${row.episode_title} (ID ${row.id})` })
        form.reset()
        setFileKey((k) => k + 1)
      },
      onError: (error) => showServerError(form, error, { title: 'Failed to save chat log' }),
    }),
  )

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      className="grid gap-4 rounded-sm border border-line p-4"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="podclub ID"
          type="number"
          inputMode="numeric"
          min={1}
          error={errors.id?.message}
          {...form.register('id')}
        />
        <Field
          key={fileKey}
          label="chat log file (.txt)"
          type="file"
          accept=".txt,text/plain"
          controlClassName="py-1.5"
          onChange={(e) => void handleFile(e)}
        />
      </div>
      <Field
        as="textarea"
        label="chat log"
        rows={6}
        placeholder="19:02:11 From maya.r to Everyone: hello"
        size="lg"
        controlClassName="font-mono"
        error={errors.chatlog?.message}
        {...form.register('chatlog')}
      />
      <PendingButton isPending={save.isPending} className="justify-self-start">
        [ save chat log ]
      </PendingButton>
    </form>
  )
}
