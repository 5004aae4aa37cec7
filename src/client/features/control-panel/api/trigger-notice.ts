import { apiRoutes } from 'virtual:api-routes'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type {
  ControlPanel,
  ControlPanelPodclub,
  createTriggerBodySchema,
} from '#contract/control-panel'
import { callApi } from '#client/lib/api-client'
import { controlPanelQueryOptions } from './get-control-panel'

export type CreateTriggerBody = z.input<typeof createTriggerBodySchema>

/** 'min' sends the 10-minute notice now, 'complete' marks complete. */
export function triggerNotice(body: CreateTriggerBody) {
  return callApi(apiRoutes.triggerNotice, { body })
}

/**
 * Puts the row the server answered into the cached panel, in place; a podclub just completed
 * also heads the recently completed list.
 */
export function replacePanelPodclub(panel: ControlPanel | undefined, row: ControlPanelPodclub) {
  if (!panel) return panel
  const completed = panel.recently_completed.filter((p) => p.id !== row.id)
  return {
    ...panel,
    all_podclubs: panel.all_podclubs.map((p) => (p.id === row.id ? row : p)),
    recently_completed: row.status === 'completed' ? [row, ...completed] : completed,
  }
}

// The row is replaced rather than the panel refetched: a podclub marked complete leaves the
// upcoming list on the server, and the operator should still see its green check where it was.
export function useTriggerNotice() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: triggerNotice,
    onSuccess: (row) => {
      queryClient.setQueryData(controlPanelQueryOptions().queryKey, (panel) =>
        replacePanelPodclub(panel, row),
      )
    },
  })
}
