import { X } from 'lucide-react'
import { Toast } from 'radix-ui'
import { cn } from '#client/lib/cn'
import {
  dismissToast,
  TOAST_DURATION_MS,
  TOAST_SWIPE_THRESHOLD,
  useToasts,
  type ToastAction,
  type ToastItem,
} from '#client/lib/toast'

/** Renders the messages sent with `toast()`; mounted once by the app provider. */
export function Toaster() {
  const toasts = useToasts()
  return (
    <Toast.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD}
    >
      {toasts.map((item) => (
        <ToastMessage key={item.id} item={item} />
      ))}
      {/* On a phone at the top, clear of the buttons that end a form (a wizard's Back and Submit,
          posting a hindsight), where the thumb is; bottom right from 40rem on. */}
      <Toast.Viewport className="fixed inset-x-0 top-0 z-[100] m-0 flex list-none flex-col gap-2 p-2 outline-none sm:inset-x-auto sm:top-auto sm:right-0 sm:bottom-0 sm:w-96 sm:p-4" />
    </Toast.Provider>
  )
}

function ToastMessage({ item }: { item: ToastItem }) {
  const isDestructive = item.variant === 'destructive'
  return (
    <Toast.Root
      open={item.open}
      onOpenChange={(open) => {
        if (!open) dismissToast(item.id)
      }}
      // Failures interrupt the screen reader; routine confirmations wait their turn.
      type={isDestructive ? 'foreground' : 'background'}
      // A tap anywhere on it puts it away (its link and Close button do their own thing).
      onClick={(event) => {
        if (event.target instanceof Element && event.target.closest('a, button')) return
        dismissToast(item.id)
      }}
      className={cn(
        'relative grid cursor-pointer grid-cols-[1fr_auto] items-start gap-x-3 rounded-sm border p-3 pr-2 shadow-lg sm:p-4 sm:pr-3',
        'data-[state=closed]:animate-toast-out data-[state=open]:animate-toast-in motion-reduce:animate-none',
        'data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-toast-out data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x)',
        isDestructive
          ? 'border-danger bg-danger-soft text-danger'
          : 'border-line bg-paper-raised text-ink',
      )}
    >
      <div className="grid gap-1">
        <Toast.Title className="font-mono text-sm font-semibold">{item.title}</Toast.Title>
        {item.description ? (
          <Toast.Description className="text-sm">{item.description}</Toast.Description>
        ) : null}
        {item.action ? (
          <ToastActionLink action={item.action} onFollowed={() => dismissToast(item.id)} />
        ) : null}
      </div>
      <Toast.Close
        aria-label="Close"
        className="-mt-1 inline-flex size-8 cursor-pointer items-center justify-center rounded-sm opacity-70 hover:opacity-100"
      >
        <X aria-hidden className="size-4" />
      </Toast.Close>
    </Toast.Root>
  )
}

/** The toast's link; following it closes the toast. */
function ToastActionLink({ action, onFollowed }: { action: ToastAction; onFollowed: () => void }) {
  return (
    <Toast.Action altText={action.altText} asChild>
      <a
        href={action.href}
        onClick={(event) => {
          if (!action.onFollow || event.metaKey || event.ctrlKey || event.shiftKey) return
          // Radix closes the toast only when the click goes the browser's way.
          event.preventDefault()
          onFollowed()
          action.onFollow()
        }}
        className="mt-1 justify-self-start rounded-sm font-mono text-sm font-semibold underline underline-offset-4"
      >
        {action.label}
      </a>
    </Toast.Action>
  )
}
