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
 * Puts the row the server answered into the cached panel, as the server now lists it: replaced
 * in place while upcoming; a podclub just completed leaves the upcoming list and heads the
 * recently completed one, so it shows once, as after a refresh.
 */
export function replacePanelPodclub(panel: ControlPanel | undefined, row: ControlPanelPodclub) {
  if (!panel) return panel
  const completed = panel.recently_completed.filter((p) => p.id !== row.id)
  const isUpcoming = row.status === 'upcoming'
  return {
    ...panel,
    all_podclubs: isUpcoming
      ? panel.all_podclubs.map((p) => (p.id === row.id ? row : p))
      : panel.all_podclubs.filter((p) => p.id !== row.id),
    recently_completed: row.status === 'completed' ? [row, ...completed] : completed,
  }
}

// The row is replaced rather than the panel refetched: the answer is the podclub as the server
// now has it, and the operator sees the change at once.
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
