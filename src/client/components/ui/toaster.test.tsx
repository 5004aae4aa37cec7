import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AppProvider } from '#client/app/provider'
import { toast } from '#client/lib/toast'
import { createTestQueryClient, queryToasts } from '#client/testing/render'

function renderToaster() {
  return render(
    <AppProvider queryClient={createTestQueryClient()}>
      <p>page</p>
    </AppProvider>,
  )
}

describe('toasts', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('shows a title and a description', () => {
    renderToaster()
    act(() => {
      toast({ title: 'Invitation Sent', description: 'Successfully sent invite' })
    })
    const [item] = queryToasts()
    expect(item).toHaveTextContent('Invitation Sent')
    expect(item).toHaveTextContent('Successfully sent invite')
  })

  it('keeps at most one on screen: a newer one replaces the older', () => {
    renderToaster()
    act(() => {
      toast({ title: 'First' })
      toast({ title: 'Second', variant: 'destructive' })
    })
    const items = queryToasts()
    expect(items).toHaveLength(1)
    expect(items[0]).toHaveTextContent('Second')
    expect(items[0]).not.toHaveTextContent('First')
  })

  it('closes by itself after 5000 ms', () => {
    vi.useFakeTimers()
    renderToaster()
    act(() => {
      toast({ title: 'Vote submitted successfully!' })
    })
    act(() => {
      vi.advanceTimersByTime(4900)
    })
    expect(queryToasts()).toHaveLength(1)
    act(() => {
      vi.advanceTimersByTime(1000)
    })
    expect(queryToasts()).toHaveLength(0)
  })

  it('can be closed by hand', async () => {
    const user = userEvent.setup()
    renderToaster()
    act(() => {
      toast({ title: 'Failed to Logout', variant: 'destructive' })
    })
    await user.click(screen.getByRole('button', { name: 'Close' }))
    await vi.waitFor(() => expect(queryToasts()).toHaveLength(0))
  })

  it('goes away on a tap anywhere on it, so it never stands in the way on a phone', async () => {
    const user = userEvent.setup()
    renderToaster()
    act(() => {
      toast({ title: 'Hindsight submitted successfully', description: 'Thanks for sharing.' })
    })
    await user.click(screen.getByText('Thanks for sharing.'))
    await vi.waitFor(() => expect(queryToasts()).toHaveLength(0))
  })

  it('can be dismissed by the code that showed it', () => {
    vi.useFakeTimers()
    renderToaster()
    let shown: ReturnType<typeof toast> | undefined
    act(() => {
      shown = toast({ title: 'Code sent successfully!' })
    })
    act(() => {
      shown?.dismiss()
      vi.advanceTimersByTime(1000)
    })
    expect(queryToasts()).toHaveLength(0)
  })

  it('keeps a message that supersedes errors over the error toasts that follow it, and shows it once', () => {
    vi.useFakeTimers()
    renderToaster()
    act(() => {
      toast({
        title: 'Session expired. Please login again.',
        variant: 'destructive',
        supersedesErrors: true,
      })
      toast({ title: 'Registration failed', description: 'Not logged in.', variant: 'destructive' })
      toast({
        title: 'Session expired. Please login again.',
        variant: 'destructive',
        supersedesErrors: true,
      })
    })
    const items = queryToasts()
    expect(items).toHaveLength(1)
    expect(items[0]).toHaveTextContent('Session expired. Please login again.')
    expect(items[0]).not.toHaveTextContent('Registration failed')

    // Once it has gone, errors show as ever.
    act(() => {
      vi.advanceTimersByTime(6000)
    })
    act(() => {
      toast({ title: 'Failed to login', variant: 'destructive' })
    })
    expect(queryToasts()[0]).toHaveTextContent('Failed to login')
  })

  it('offers its action as a link, and closes once it is followed', async () => {
    const user = userEvent.setup()
    const followed: string[] = []
    renderToaster()
    act(() => {
      toast({
        title: 'Session expired. Please login again.',
        variant: 'destructive',
        action: {
          label: '[ login ]',
          href: '/login?next=%2Fhome',
          altText: 'Log in again from the login screen.',
          onFollow: () => followed.push('/login?next=%2Fhome'),
        },
      })
    })
    const link = screen.getByRole('link', { name: '[ login ]' })
    expect(link).toHaveAttribute('href', '/login?next=%2Fhome')
    await user.click(link)
    expect(followed).toEqual(['/login?next=%2Fhome'])
    await vi.waitFor(() => expect(queryToasts()).toHaveLength(0))
  })
})
