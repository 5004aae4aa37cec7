import { useId, useState, type FormEvent } from 'react'
import { idSchema } from '#contract/common'
import { Button } from '#client/components/ui/button'
import { Input } from '#client/components/ui/input'
import { Label } from '#client/components/ui/label'
import { Spinner } from '#client/components/ui/spinner'
import { toast } from '#client/lib/toast'
import { useQuickRegister } from '../api/operator-calls'

type Errors = { id?: string; username?: string }

/** Quick Registration (spec 2 §2): a podclub ID number and a username, then Register. */
export function QuickRegistrationForm() {
  const id = useId()
  const [podclubId, setPodclubId] = useState('')
  const [username, setUsername] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const register = useQuickRegister()

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (register.isPending) return
    const parsedId = idSchema.safeParse(podclubId.trim() || undefined)
    const name = username.trim()
    const next: Errors = {}
    if (!parsedId.success) next.id = 'Enter a podclub ID number'
    if (!name) next.username = 'Enter a username'
    setErrors(next)
    if (!parsedId.success || !name) return
    register.mutate(
      { podclubId: parsedId.data, username: name },
      {
        onSuccess: () => {
          toast({ title: 'User registered for podclub' })
          setPodclubId('')
          setUsername('')
        },
        onError: (error) =>
          toast({
            title: 'Registration failed',
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
      aria-label="Quick Registration"
      onSubmit={handleSubmit}
      className="grid gap-4 rounded-sm border border-line p-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
    >
      <div className="grid gap-2">
        <Label htmlFor={`${id}-id`}>podclub ID number</Label>
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
        <Label htmlFor={`${id}-username`}>Username</Label>
        <Input
          id={`${id}-username`}
          autoComplete="off"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          {...field('username')}
        />
        {error('username')}
      </div>
      <Button type="submit" className="sm:mt-7" disabled={register.isPending}>
        {register.isPending ? <Spinner /> : null}Register
      </Button>
    </form>
  )
}
