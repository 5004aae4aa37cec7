import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { Tooltip } from 'radix-ui'
import type { ReactNode } from 'react'
import { Toaster } from '#client/components/ui/toaster'

type AppProviderProps = {
  queryClient: QueryClient
  children: ReactNode
}

/** Everything a screen may rely on besides the router: the query cache, tooltips and toasts. */
export function AppProvider({ queryClient, children }: AppProviderProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <Tooltip.Provider delayDuration={700} skipDelayDuration={300}>
        {children}
        <Toaster />
      </Tooltip.Provider>
    </QueryClientProvider>
  )
}
