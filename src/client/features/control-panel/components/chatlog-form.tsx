import { useId, useState, type ChangeEvent, type FormEvent } from 'react'
import { idSchema } from '#contract/common'
import { updateChatlogBodySchema } from '#contract/control-panel'
import { Button } from '#client/components/ui/button'
import { Input } from '#client/components/ui/input'
import { Label } from '#client/components/ui/label'
import { Spinner } from '#client/components/ui/spinner'
import { toast } from '#client/lib/toast'
import { useUpdateChatlog } from '../api/update-chatlog'

type Errors = { id?: string; chatlog?: string }

/** The Zoom chat log of a podclub, pasted or read from the saved file in the page. */
export function ChatlogForm() {
  const id = useId()
  const [podclubId, setPodclubId] = useState('')
  const [chatlog, setChatlog] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [fileKey, setFileKey] = useState(0)
  const save = useUpdateChatlog()

  async function handleFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    if (!file) return
    try {
      setChatlog(await file.text())
      setErrors((current) => ({ ...current, chatlog: undefined }))
    } catch {
      setErrors((current) => ({ ...current, chatlog: 'That file could not be read' }))
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (save.isPending) return
    const parsedId = idSchema.safeParse(podclubId.trim() || undefined)
    const parsedLog = updateChatlogBodySchema.safeParse({ chatlog })
    const next: Errors = {}
    if (!parsedId.success) next.id = 'Enter a podclub ID number'
    if (!parsedLog.success) next.chatlog = parsedLog.error.issues[0]?.message
    else if (!parsedLog.data.chatlog.trim()) next.chatlog = 'Paste the chat log or choose its file'
    setErrors(next)
    if (!parsedId.success || !parsedLog.success || next.chatlog) return
    save.mutate(
      { id: parsedId.data, chatlog: parsedLog.data.chatlog },
      {
        onSuccess: (row) => {
          toast({ title: 'Chat log saved', description: `${row.episode_title} (ID ${row.id})` })
          setChatlog('')
          setPodclubId('')
          setFileKey((k) => k + 1)
        },
        onError: (error) =>
          toast({
            title: 'Failed to save chat log',
            description: error.message,
            variant: 'destructive',
          }),
      },
    )
  }

  const field = (name: keyof Errors) => ({
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  })
  const error = (name: keyof Errors) =>
    errors[name] ? (
      <p id={`${id}-${name}-error`} className="text-sm text-danger">
        {errors[name]}
      </p>
    ) : null

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      className="grid gap-4 rounded-sm border border-line p-4"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={`${id}-id`}>podclub ID</Label>
          <Input
            id={`${id}-id`}
            type="number"
            inputMode="numeric"
            min={1}
            value={podclubId}
            onChange={(e) => setPodclubId(e.target.value)}
            {...field('id')}
          />
          {error('id')}
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-file`}>chat log file (.txt)</Label>
          <Input
            key={fileKey}
            id={`${id}-file`}
            type="file"
            accept=".txt,text/plain"
            className="py-1.5"
            onChange={(e) => void handleFile(e)}
          />
        </div>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-chatlog`}>chat log</Label>
        <textarea
          id={`${id}-chatlog`}
          rows={6}
          placeholder="19:02:11 From maya.r to Everyone: hello"
          value={chatlog}
          onChange={(e) => setChatlog(e.target.value)}
          className="w-full rounded-sm border border-line bg-paper-raised p-3 font-mono text-base text-ink placeholder:text-ink-muted/70 aria-invalid:border-danger sm:text-sm"
          {...field('chatlog')}
        />
        {error('chatlog')}
      </div>
      <Button type="submit" className="justify-self-start" disabled={save.isPending}>
        {save.isPending ? <Spinner /> : null}[ save chat log ]
      </Button>
    </form>
  )
}
