import { PendingButton } from '#client/components/form/pending-button'
import { Button } from '#client/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
} from '#client/components/ui/dialog'

type CodeOfConductDialogProps = {
  open: boolean
  isSubmitting: boolean
  onAccept: () => void
  onDecline: () => void
}

const RULES = [
  {
    title: "1. don't be a d*ck.",
    body: 'Disagree with ideas, never with people. No insults, no harassment, no slurs, no talking over someone who is still finishing their thought. Everyone at the table chose to spend an hour with strangers; make that choice feel like a good one.',
  },
  {
    title: '2. elevate the conversation.',
    body: 'Listen to the episode before you come. Bring a question, a moment that stuck with you, or a thing you disagreed with. Share the air: if you have spoken three times, let someone who has not go next. Curiosity beats expertise every time.',
  },
  {
    title: '3. invite your friends.',
    body: 'podclub grows one person at a time, through members. Bring people you would want at your own dinner table, and you vouch for them: their welcome code is tied to your invitation.',
  },
]

/**
 * Spec 2 §2 step 3: shown after the form, before the account exists. Closing it any way other
 * than 'accept & continue' (Escape, the decline button) counts as declining.
 */
export function CodeOfConductDialog({
  open,
  isSubmitting,
  onAccept,
  onDecline,
}: CodeOfConductDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !isSubmitting) onDecline()
      }}
    >
      <DialogContent
        onInteractOutside={(event) => event.preventDefault()}
        aria-busy={isSubmitting || undefined}
      >
        <DialogTitle>code of conduct</DialogTitle>
        <DialogDescription>
          podclub is a small room. Three rules keep it worth showing up to.
        </DialogDescription>
        <div className="grid gap-4 text-sm leading-relaxed">
          {RULES.map((rule) => (
            <section key={rule.title} className="grid gap-1">
              <h3 className="font-mono font-semibold">{rule.title}</h3>
              <p>{rule.body}</p>
            </section>
          ))}
          <p className="text-ink-muted">
            Moderators, who are members like you, may step into a discussion, end it early or close
            an account when these rules are broken. If something at a podclub made you
            uncomfortable, tell us: reports are read by a person and kept private.
          </p>
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onDecline} disabled={isSubmitting}>
            [ decline ]
          </Button>
          <PendingButton
            type="button"
            onClick={onAccept}
            isPending={isSubmitting}
            pendingLabel="[ creating account… ]"
          >
            [ accept & continue ]
          </PendingButton>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
