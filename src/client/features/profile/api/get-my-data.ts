import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'
import type { MyData } from '#contract/profile'
import { callApi } from '#client/lib/api-client'

export function getMyData() {
  return callApi(apiRoutes.getMyData)
}

/** The file 'download my data' saves: the answer as it came, readable by people too. */
export function myDataFile(data: MyData): { name: string; text: string } {
  const day = data.exported_at.slice(0, 10)
  return {
    name: `podclub-data-${data.account.username}-${day}.json`,
    text: `${JSON.stringify(data, null, 2)}\n`,
  }
}

/** Hands the browser a file to save, as a download link would. */
function saveFile({ name, text }: { name: string; text: string }) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  // The click has handed the file over; the object URL is not needed after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/**
 * Asks for the member's data when they ask for it (never cached: it is theirs as it is now) and
 * saves it as a JSON file.
 */
export function useDownloadMyData() {
  return useMutation({
    mutationFn: getMyData,
    onSuccess: (data) => saveFile(myDataFile(data)),
  })
}
