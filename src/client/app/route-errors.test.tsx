import { screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { expectConsoleError } from '#client/testing/console'
import { findScreenTitle, renderWithProviders } from '#client/testing/render'

vi.mock('#client/app/routes/about', () => ({
  default: function BrokenAbout(): never {
    throw new Error('about exploded')
  },
}))

describe('route error boundary', () => {
  it('keeps the header and footer around a broken screen and offers a way out', async () => {
    // React and React Router both report the caught render error.
    expectConsoleError(/about exploded|above error occurred|React Router caught/)
    const { user, router } = renderWithProviders({ path: '/about' })

    const alert = await screen.findByRole('alert')
    expect(within(alert).getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument()
    expect(alert).not.toHaveTextContent('about exploded')
    expect(screen.getByRole('banner')).toBeInTheDocument()
    expect(screen.getByRole('contentinfo')).toBeInTheDocument()

    await user.click(within(alert).getByRole('link', { name: 'Go Home' }))
    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
  })
})
