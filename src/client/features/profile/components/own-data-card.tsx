import { Download, Trash2 } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import { deleteAccountBodySchema } from '#contract/profile'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { Button } from '#client/components/ui/button'
import { Card, CardTitle } from '#client/components/ui/card'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
  DialogTrigger,
} from '#client/components/ui/dialog'
import { Spinner } from '#client/components/ui/spinner'
import { DEFAULT_ERROR_MESSAGE, isApiError } from '#client/lib/api-client'
import { toast } from '#client/lib/toast'
import { useDeleteAccount, useLeaveDeletedAccount } from '../api/delete-account'
import { useDownloadMyData } from '../api/get-my-data'

/**
 * The member's own data (docs/decisions/019): a copy of it as a JSON file, and the way to leave,
 * which asks for the password in a dialog.
 */
export function OwnDataCard() {
  const id = useId()
  const download = useDownloadMyData()

  const handleDownload = () => {
    download.mutate(undefined, {
      onError: (error) =>
        toast({
          title: 'Failed to download your data',
          description: isApiError(error) ? error.message : undefined,
          variant: 'destructive',
        }),
    })
  }

  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardTitle id={`${id}-title`}>your data</CardTitle>
      <div className="grid gap-4 text-sm">
        <p>
          Download a copy of what podclub keeps about you: your account, seats, the podclubs you
          host, your hindsights, votes and suggestions, and the e-mails we sent you.
        </p>
        <p className="text-ink-muted">
          Deleting your account ends every session, gives back your seats and cancels the podclubs
          you host that have not happened yet. Your hindsights stay, signed by &apos;a former
          member&apos;. Your name, e-mail address and city are gone for good.
        </p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button
            variant="outline"
            disabled={download.isPending}
            aria-busy={download.isPending || undefined}
            onClick={handleDownload}
          >
            {download.isPending ? <Spinner /> : <Download aria-hidden />}
            download my data
          </Button>
          <DeleteAccountDialog />
        </div>
      </div>
    </Card>
  )
}

function DeleteAccountDialog() {
  const [isOpen, setIsOpen] = useState(false)
  // A refusal no field is to blame for (the last super user, too many attempts): said in the
  // dialog, which hides the rest of the page, toasts included, from screen readers.
  const [refusal, setRefusal] = useState<string | null>(null)
  const form = useContractForm(deleteAccountBodySchema, { defaultValues: { password: '' } })
  const remove = useDeleteAccount()
  const leave = useLeaveDeletedAccount()
  const [isDeleted, setIsDeleted] = useState(false)

  // Once deleted, the dialog closes first and the page moves on when it is gone: while a modal
  // is open the rest of the page is hidden from screen readers, and the toast saying the account
  // is gone would not be read.
  useEffect(() => {
    if (isDeleted && !isOpen) leave()
  }, [isDeleted, isOpen, leave])

  const handleOpenChange = (open: boolean) => {
    // Not while the request is on its way: its answer decides what happens next.
    if (remove.isPending) return
    setIsOpen(open)
    if (!open) {
      form.reset()
      setRefusal(null)
    }
  }

  const handleSubmit = form.handleSubmit((body) => {
    setRefusal(null)
    remove.mutate(body, {
      onSuccess: () => {
        setIsDeleted(true)
        setIsOpen(false)
      },
      onError: (error) => {
        showServerError(form, error, { title: 'Failed to delete account' })
        const onAField = isApiError(error) && Object.keys(error.fieldErrors).length > 0
        if (!onAField) setRefusal(isApiError(error) ? error.message : DEFAULT_ERROR_MESSAGE)
      },
    })
  })

  return (
    <Dialog open={isOpen} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button variant="destructive">
          <Trash2 aria-hidden />
          delete my account
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form noValidate onSubmit={handleSubmit} className="grid gap-4">
          <DialogTitle>delete my account</DialogTitle>
          <DialogDescription>
            This cannot be undone. Your seats go to the next members in line, the podclubs you host
            that have not happened are cancelled, and your hindsights stay as from &apos;a former
            member&apos;. Type your password to confirm.
          </DialogDescription>
          <Field
            label="password"
            type="password"
            autoComplete="current-password"
            disabled={remove.isPending}
            error={form.formState.errors.password?.message}
            {...form.register('password')}
          />
          {refusal ? (
            <p role="alert" className="text-sm text-danger">
              {refusal}
            </p>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={remove.isPending}>
                cancel
              </Button>
            </DialogClose>
            <PendingButton
              variant="destructive"
              isPending={remove.isPending}
              pendingLabel="deleting…"
            >
              delete my account
            </PendingButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
