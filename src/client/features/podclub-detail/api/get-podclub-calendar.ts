import { API_BASE } from '#client/lib/api-client'

/**
 * GET /podclubs/:id/calendar/ answers the podclub's `.ics` as a download. The browser fetches it
 * itself through a plain link (calendar apps open the file), so there is nothing to parse here.
 */
export function podclubCalendarUrl(podclubId: number) {
  return `${API_BASE}/podclubs/${podclubId}/calendar/`
}
