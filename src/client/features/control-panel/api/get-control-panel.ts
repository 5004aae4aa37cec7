import { queryOptions, useQuery } from '@tanstack/react-query'
import { controlPanelResponseSchema } from '#contract/control-panel'
import { api } from '#client/lib/api-client'

/** GET /controlpanel/: everything the panel shows, each list bounded by the server. */
export function getControlPanel(signal?: AbortSignal) {
  return api.get('/controlpanel/', controlPanelResponseSchema, { signal })
}

export function controlPanelQueryOptions() {
  return queryOptions({
    queryKey: ['control-panel'],
    queryFn: ({ signal }) => getControlPanel(signal),
  })
}

export function useControlPanel() {
  return useQuery(controlPanelQueryOptions())
}
