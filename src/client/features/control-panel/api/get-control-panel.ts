import { apiRoutes } from 'virtual:api-routes'
import { queryOptions, useQuery } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'

/** Everything the panel shows, each list bounded by the server. */
export function getControlPanel(signal?: AbortSignal) {
  return callApi(apiRoutes.getControlPanel, { signal })
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
