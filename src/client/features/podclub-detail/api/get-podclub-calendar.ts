import { apiRoutes } from 'virtual:api-routes'
import { apiUrl } from '#client/lib/api-client'

/**
 * The podclub's `.ics` is a download: the browser fetches it itself through a plain link
 * (calendar apps open the file), so there is nothing to parse here.
 */
export function podclubCalendarUrl(podclubId: number) {
  return apiUrl(apiRoutes.getPodclubCalendar, { podclubId })
}
