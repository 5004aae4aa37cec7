import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { whoamiResponseSchema, type SessionUser } from '#contract/auth'
import { member, whoamiOf } from '#client/testing/fixtures'
import { replyError, reply, type Handler, type Handlers } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'

// whoami answers a visitor until the login call succeeds, like the real session cookie.
function loginServer(loginReply: Handler) {
  let loggedIn: SessionUser | null = null
  const handlers: Handlers = {
    getWhoami: () => reply(whoamiResponseSchema, { data: whoamiOf(loggedIn) }),
    login: async (request) => {
      const answer = await loginReply(request)
      if (answer.kind === 'json' && answer.status === 200) loggedIn = member
      return answer
    },
  }
  return handlers
}

async function renderLogin(loginReply: Handler) {
  const view = renderWithProviders({ path: '/login', handlers: loginServer(loginReply) })
  await findScreenTitle('login')
  return view
}

describe('login form', () => {
  it('labels its fields for password managers and links to /forgot-password', async () => {
    await renderLogin(() => replyError(500))
    expect(screen.getByLabelText('username')).toHaveAttribute('autocomplete', 'username')
    expect(screen.getByLabelText('password')).toHaveAttribute('autocomplete', 'current-password')
    expect(screen.getByLabelText('password')).toHaveAttribute('type', 'password')
    expect(screen.getByRole('link', { name: 'forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    )
  })

  it("says 'Username is required' and 'Password is required' without calling the server", async () => {
    const { user, api } = await renderLogin(() => replyError(500))

    await user.type(screen.getByLabelText('password'), '   ')
    await user.click(screen.getByRole('button', { name: '[ login ]' }))

    expect(screen.getByLabelText('username')).toHaveAccessibleDescription('Username is required')
    expect(screen.getByLabelText('username')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText('password')).toHaveAccessibleDescription('Password is required')
    expect(screen.getByLabelText('username')).toHaveFocus()
    expect(api.callsTo('login')).toHaveLength(0)

    await user.type(screen.getByLabelText('username'), 'ada')
    expect(screen.queryByText('Username is required')).not.toBeInTheDocument()
  })

  it('logs in, refreshes the session from whoami and goes to /home', async () => {
    document.cookie = 'csrftoken=csrf123'
    const { user, api, router } = await renderLogin(() =>
      reply(whoamiResponseSchema, { data: whoamiOf(member) }),
    )

    await user.type(screen.getByLabelText('username'), '  ada.lovelace ')
    await user.type(screen.getByLabelText('password'), 'correct horse')
    await user.click(screen.getByRole('button', { name: '[ login ]' }))

    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
    const [call] = api.callsTo('login')
    expect(call?.body).toEqual({ username: 'ada.lovelace', password: 'correct horse' })
    expect(call?.headers.get('X-CSRFToken')).toBe('csrf123')
    // Once on load, once after login.
    expect(api.callsTo('getWhoami')).toHaveLength(2)
    expect(
      within(screen.getByRole('banner')).getByRole('button', { name: member.username }),
    ).toBeInTheDocument()
  })

  it('disables the button and shows it is busy while the call runs', async () => {
    let finish: () => void = () => {}
    const { user } = await renderLogin(
      () =>
        new Promise((resolve) => {
          finish = () => resolve(replyError(400, { detail: 'Unable to log in' }))
        }),
    )

    await user.type(screen.getByLabelText('username'), 'ada')
    await user.type(screen.getByLabelText('password'), 'secret')
    await user.click(screen.getByRole('button', { name: '[ login ]' }))

    const busy = await screen.findByRole('button', { name: '[ logging in… ]' })
    expect(busy).toBeDisabled()
    finish()
    expect(await screen.findByRole('button', { name: '[ login ]' })).toBeEnabled()
  })

  it("shows 'Failed to login' with the server's message and clears the form", async () => {
    const { user, router } = await renderLogin(() =>
      replyError(400, { non_field_errors: ['Unable to log in with provided credentials.'] }),
    )

    await user.type(screen.getByLabelText('username'), 'ada')
    await user.type(screen.getByLabelText('password'), 'wrong')
    await user.click(screen.getByRole('button', { name: '[ login ]' }))

    await screen.findByText('Failed to login', { selector: 'li *' })
    const [toast] = queryToasts()
    expect(toast).toHaveTextContent('Unable to log in with provided credentials.')
    expect(screen.getByLabelText('username')).toHaveValue('')
    expect(screen.getByLabelText('password')).toHaveValue('')
    expect(router.state.location.pathname).toBe('/login')
  })

  it('takes the failure toast away once a later try logs in', async () => {
    let tries = 0
    const { user } = await renderLogin(() =>
      ++tries === 1
        ? replyError(400, { detail: 'Invalid username or password.' })
        : reply(whoamiResponseSchema, { data: whoamiOf(member) }),
    )
    await user.type(screen.getByLabelText('username'), 'ada')
    await user.type(screen.getByLabelText('password'), 'wrong')
    await user.click(screen.getByRole('button', { name: '[ login ]' }))
    await screen.findByText('Failed to login', { selector: 'li *' })

    await user.type(screen.getByLabelText('username'), 'ada')
    await user.type(screen.getByLabelText('password'), 'right')
    await user.click(screen.getByRole('button', { name: '[ login ]' }))
    await findScreenTitle('home')
    await waitFor(() => expect(screen.queryByText('Failed to login')).not.toBeInTheDocument())
  })

  it('treats a 401 from login as a failed login, not an expired session', async () => {
    const { user, router } = await renderLogin(() =>
      replyError(401, { detail: 'Invalid username or password', code: 'INVALID_CREDENTIALS' }),
    )

    await user.type(screen.getByLabelText('username'), 'ada')
    await user.type(screen.getByLabelText('password'), 'wrong')
    await user.click(screen.getByRole('button', { name: '[ login ]' }))

    await screen.findByText('Failed to login', { selector: 'li *' })
    expect(queryToasts()[0]).toHaveTextContent('Invalid username or password')
    expect(router.state.location.pathname).toBe('/login')
  })
})
