import { QueryObserver } from '@tanstack/react-query'
import { describe, expect, it, vi } from 'vitest'
import { createQueryClient, forgetHandedOver, markHandedOver } from './query-client'

describe('queries the server handed over', () => {
  it('are not asked again when a screen mounts while the page hydrates, and are afterwards', async () => {
    const queryClient = createQueryClient()
    const queryFn = vi.fn(() => Promise.resolve('asked'))
    const options = { queryKey: ['podclub', 7], queryFn, staleTime: 0 }
    queryClient.setQueryData(options.queryKey, 'sent with the page')
    markHandedOver(queryClient)

    const arriving = new QueryObserver(queryClient, options).subscribe(() => {})
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(queryFn).not.toHaveBeenCalled()
    arriving()

    forgetHandedOver()
    const opening = new QueryObserver(queryClient, options).subscribe(() => {})
    await vi.waitFor(() => expect(queryFn).toHaveBeenCalledTimes(1))
    opening()
  })
})
