import { queryOptions, useQuery } from '@tanstack/react-query'
import { getControlPanelEndpoint } from '#contract/control-panel'
import { callApi } from '#client/lib/api-client'

/** Everything the panel shows, each list bounded by the server. */
export function getControlPanel(signal?: AbortSignal) {
  return callApi(getControlPanelEndpoint, { signal })
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
