import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { nextTask } from '#client/lib/next-task'

/**
 * Holds the live stream open while the page is, as the visitor or member `viewer` names (it opens
 * again when that changes, so a member's stream carries their own place). Its code
 * (live-updates.ts) loads once the page is up, in a task of its own after the one that mounted
 * the page: the first screen does not wait for it, nor does hydrating grow longer by it.
 */
export function useLiveUpdates(viewer: string | null) {
  const queryClient = useQueryClient()
  useEffect(() => {
    if (typeof EventSource === 'undefined') return
    let close: (() => void) | undefined
    let isCurrent = true
    void nextTask()
      .then(() => (isCurrent ? import('./live-updates') : null))
      .then((live) => {
        if (live && isCurrent) close = live.connectLiveUpdates(queryClient)
      })
    return () => {
      isCurrent = false
      close?.()
    }
  }, [viewer, queryClient])
}
