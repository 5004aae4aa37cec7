import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Toaster } from '#client/components/ui/toaster'

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
      <Toaster />
    </QueryClientProvider>
  )
}
