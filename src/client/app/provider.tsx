import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { useEffect, useSyncExternalStore, type ReactNode } from 'react'
import { useToasts } from '#client/lib/toast'

type AppProviderProps = {
  queryClient: QueryClient
  children: ReactNode
}

/**
 * Everything a screen may rely on besides the router: the query cache and toasts. No screen
 * shows a tooltip; one that does wraps itself in Radix's `Tooltip.Provider` with the spec's
 * delays (700 ms, skip 300 ms), so the first load doesn't carry it for every page.
 */
export function AppProvider({ queryClient, children }: AppProviderProps) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <ToasterOnceNeeded />
    </QueryClientProvider>
  )
}

// Radix's toast machinery loads with the first message, not with every first page.
let toaster: ReactNode = null
let loading: Promise<void> | undefined
const toasterListeners = new Set<() => void>()

/** Loads the toaster (once); tests call it first so a toast shows in the same render. */
export function loadToaster(): Promise<void> {
  loading ??= import('#client/components/ui/toaster').then(({ Toaster }) => {
    toaster = <Toaster />
    for (const listener of toasterListeners) listener()
  })
  return loading
}

function subscribeToaster(listener: () => void) {
  toasterListeners.add(listener)
  return () => {
    toasterListeners.delete(listener)
  }
}

/** The toaster once a message has come and its code is here; nothing before. */
function ToasterOnceNeeded() {
  const hasToasts = useToasts().length > 0
  const loaded = useSyncExternalStore(
    subscribeToaster,
    () => toaster,
    () => null,
  )
  useEffect(() => {
    if (hasToasts) void loadToaster()
  }, [hasToasts])
  return loaded
}
