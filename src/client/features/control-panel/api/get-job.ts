import { apiRoutes } from 'virtual:api-routes'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { isJobSettled, type Job } from '#contract/jobs'
import { callApi, isApiError } from '#client/lib/api-client'

/** How often a job that is still queued or running is asked about. */
export const JOB_POLL_MS = 1_000

const isRefusal = (error: unknown) => isApiError(error) && error.status >= 400 && error.status < 500

/** Where a job an operator started stands. */
export function getJob(id: number, signal?: AbortSignal) {
  return callApi(apiRoutes.getJob, { params: { id }, signal })
}

export function jobQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['jobs', id],
    queryFn: ({ signal }) => getJob(id, signal),
    // Asked again while it runs; once it is done or failed, or is no job to ask about (a 404
    // for an id kept from long ago), never again. A network failure is asked again.
    refetchInterval: (query) => {
      const job: Job | undefined = query.state.data
      if (job && isJobSettled(job)) return false
      return isRefusal(query.state.error) ? false : JOB_POLL_MS
    },
    staleTime: 0,
  })
}

/** The job `id` while there is one to follow; nothing is asked when `id` is null. */
export function useJob(id: number | null) {
  const query = useQuery({ ...jobQueryOptions(id ?? 0), enabled: id !== null })
  return { ...query, isRefused: isRefusal(query.error) }
}
