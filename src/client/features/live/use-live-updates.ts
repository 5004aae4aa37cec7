import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'

/**
 * Holds the live stream open while the page is, as the visitor or member `viewer` names (it opens
 * again when that changes, so a member's stream carries their own place). Its code
 * (live-updates.ts) loads once the page is up: the first screen does not wait for it.
 */
export function useLiveUpdates(viewer: string | null) {
  const queryClient = useQueryClient()
  useEffect(() => {
    if (typeof EventSource === 'undefined') return
    let close: (() => void) | undefined
    let isCurrent = true
    void import('./live-updates').then(({ connectLiveUpdates }) => {
      if (isCurrent) close = connectLiveUpdates(queryClient)
    })
    return () => {
      isCurrent = false
      close?.()
    }
  }, [viewer, queryClient])
}
