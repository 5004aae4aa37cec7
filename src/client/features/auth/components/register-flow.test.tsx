import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import {
  INVALID_INVITE_CODE_MESSAGE,
  SIGNUP_EMAIL_REFUSED_MESSAGE,
  validateInviteCodeResponseSchema,
  whoamiResponseSchema,
  type SessionUser,
} from '#contract/auth'
import { whoamiOf } from '#client/testing/fixtures'
import { reply, replyError, type Handler, type Handlers } from '#client/testing/mock-api'
import {
  findScreenTitle,
  findToast,
  queryToasts,
  renderWithProviders,
} from '#client/testing/render'

const newMember: SessionUser = {
  username: 'new.member',
  email: 'new@example.com',
  is_superuser: false,
}

// whoami answers a visitor until signup succeeds, like the real session cookie.
function registerServer(signupReply: Handler, codeReply?: Handler): Handlers {
  let loggedIn: SessionUser | null = null
  return {
    getWhoami: () => reply(whoamiResponseSchema, { data: whoamiOf(loggedIn) }),
    validateInviteCode:
      codeReply ?? (() => reply(validateInviteCodeResponseSchema, { data: { valid: true } })),
    signup: async (request) => {
      const answer = await signupReply(request)
      if (answer.kind === 'json' && answer.status === 201) loggedIn = newMember
      return answer
    },
  }
}

const created = () => reply(whoamiResponseSchema, { data: whoamiOf(newMember) }, 201)

async function renderRegister(path: string, signupReply: Handler = created, codeReply?: Handler) {
  const view = renderWithProviders({ path, handlers: registerServer(signupReply, codeReply) })
  await findScreenTitle('register')
  return view
}

type View = Awaited<ReturnType<typeof renderRegister>>

async function fillForm(user: View['user'], over: Partial<Record<string, string>> = {}) {
  const values: Record<string, string> = {
    username: 'new.member',
    email: 'new@example.com',
    city: 'Brooklyn',
    'how did you find us?': 'a friend',
    password: 'longenough',
    'confirm password': 'longenough',
    ...over,
  }
  for (const [label, value] of Object.entries(values)) {
    const field = screen.getByLabelText(label)
    await user.clear(field)
    if (value) await user.type(field, value)
  }
}

describe('register: invite step', () => {
  it('checks a code from the path at once and shows the form', async () => {
    const { api } = await renderRegister('/register/WELCOME1')
    expect(await screen.findByLabelText('username')).toBeInTheDocument()
    expect(api.callsTo('validateInviteCode')[0]?.body).toEqual({ code: 'WELCOME1' })
    expect(screen.getByText('WELCOME1')).toBeInTheDocument()
  })

  it('lets the visitor go back and use another code', async () => {
    const { user, api } = await renderRegister('/register/WELCOME1')
    await screen.findByLabelText('username')
    await user.click(screen.getByRole('button', { name: 'use another code' }))
    const code = screen.getByLabelText('invite code')
    expect(code).toHaveValue('WELCOME1')
    // Going back does not check the same code again by itself.
    expect(api.callsTo('validateInviteCode')).toHaveLength(1)
    await user.clear(code)
    await user.type(code, 'OTHER2')
    await user.click(screen.getByRole('button', { name: '[ continue ]' }))
    expect(await screen.findByText('OTHER2')).toBeInTheDocument()
  })

  it("says 'Invalid invite code' in a toast and 'Failed to validate invite code' inline", async () => {
    const { user } = await renderRegister('/register', created, () =>
      replyError(400, { detail: INVALID_INVITE_CODE_MESSAGE, code: 'INVALID_INVITE_CODE' }),
    )
    expect(screen.getByRole('link', { name: /join the waitlist/ })).toHaveAttribute(
      'href',
      '/waitlist',
    )
    await user.click(screen.getByRole('button', { name: '[ continue ]' }))
    expect(screen.getByLabelText('invite code')).toHaveAccessibleDescription(
      'Invite code is required',
    )

    await user.type(screen.getByLabelText('invite code'), 'NOPE')
    await user.click(screen.getByRole('button', { name: '[ continue ]' }))
    await waitFor(() =>
      expect(screen.getByLabelText('invite code')).toHaveAccessibleDescription(
        'Failed to validate invite code',
      ),
    )
    const [toast] = queryToasts()
    expect(toast).toHaveTextContent('Invalid invite code')
    expect(toast).toHaveTextContent(INVALID_INVITE_CODE_MESSAGE)
    expect(screen.queryByLabelText('username')).not.toBeInTheDocument()
  })
})

describe('register: form and code of conduct', () => {
  it("keeps 'create' disabled until every field has something, and shows the spec's messages", async () => {
    const { user, api } = await renderRegister('/register/WELCOME1')
    await screen.findByLabelText('username')
    const create = screen.getByRole('button', { name: '[ create account ]' })
    expect(create).toBeDisabled()
    await fillForm(user, { 'confirm password': '' })
    expect(create).toBeDisabled()
    await fillForm(user, {
      username: 'Bad_Name',
      email: 'nope',
      city: 'X',
      password: 'short',
      'confirm password': 'short',
    })
    expect(create).toBeEnabled()
    await user.click(create)
    expect(screen.getByLabelText('username')).toHaveAccessibleDescription(
      /Username can only contain lowercase letters, numbers, and periods/,
    )
    expect(screen.getByLabelText('email')).toHaveAccessibleDescription(
      'Please enter a valid email address',
    )
    expect(screen.getByLabelText('city')).toHaveAccessibleDescription('Please enter a valid city')
    expect(screen.getByLabelText('password')).toHaveAccessibleDescription(
      /Password must be at least 8 characters/,
    )
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(api.callsTo('signup')).toHaveLength(0)

    await fillForm(user, { 'confirm password': 'different' })
    await user.click(create)
    expect(screen.getByLabelText('confirm password')).toHaveAccessibleDescription(
      'Passwords do not match',
    )
  })

  it('cancels when the code of conduct is declined', async () => {
    const { user, api } = await renderRegister('/register/WELCOME1')
    await screen.findByLabelText('username')
    await fillForm(user)
    await user.click(screen.getByRole('button', { name: '[ create account ]' }))
    const dialog = await screen.findByRole('dialog', { name: 'code of conduct' })
    expect(dialog).toHaveTextContent("don't be a d*ck")
    expect(dialog).toHaveTextContent('elevate the conversation')
    expect(dialog).toHaveTextContent('invite your friends')
    expect(dialog).toHaveTextContent('Moderators')

    await user.click(within(dialog).getByRole('button', { name: '[ decline ]' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    const [toast] = queryToasts()
    expect(toast).toHaveTextContent('Registration cancelled')
    expect(toast).toHaveTextContent('You must accept the code of conduct to join podclub.')
    expect(api.callsTo('signup')).toHaveLength(0)
    // The form keeps what was typed.
    expect(screen.getByLabelText('username')).toHaveValue('new.member')
  })

  it('creates the account on accept, logs in and goes to /home', async () => {
    const { user, api, router } = await renderRegister('/register/WELCOME1')
    await screen.findByLabelText('username')
    await fillForm(user)
    await user.click(screen.getByRole('button', { name: '[ create account ]' }))
    await user.click(await screen.findByRole('button', { name: '[ accept & continue ]' }))

    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
    expect(api.callsTo('signup')[0]?.body).toEqual({
      username: 'new.member',
      email: 'new@example.com',
      city: 'Brooklyn',
      source: 'a friend',
      password: 'longenough',
      inviteCode: 'WELCOME1',
    })
    const [toast] = queryToasts()
    expect(toast).toHaveTextContent('Account Created')
    expect(toast).toHaveTextContent('Account created successfully!')
    expect(
      within(screen.getByRole('banner')).getByRole('button', { name: newMember.username }),
    ).toBeInTheDocument()
  })

  it('puts a taken username on its field', async () => {
    const { user } = await renderRegister('/register/WELCOME1', () =>
      replyError(400, { username: ['A user with that username already exists.'] }),
    )
    await screen.findByLabelText('username')
    await fillForm(user)
    await user.click(screen.getByRole('button', { name: '[ create account ]' }))
    await user.click(await screen.findByRole('button', { name: '[ accept & continue ]' }))

    await waitFor(() =>
      expect(screen.getByLabelText('username')).toHaveAccessibleDescription(
        /A user with that username already exists\./,
      ),
    )
    expect(queryToasts()[0]).toHaveTextContent('Failed to create account')
  })

  it("puts the refusal of a member's e-mail address on its field", async () => {
    const { user, router } = await renderRegister('/register/WELCOME1', () =>
      replyError(400, { email: [SIGNUP_EMAIL_REFUSED_MESSAGE] }),
    )
    await screen.findByLabelText('username')
    await fillForm(user)
    await user.click(screen.getByRole('button', { name: '[ create account ]' }))
    await user.click(await screen.findByRole('button', { name: '[ accept & continue ]' }))

    await waitFor(() =>
      expect(screen.getByLabelText('email')).toHaveAccessibleDescription(
        SIGNUP_EMAIL_REFUSED_MESSAGE,
      ),
    )
    expect(await findToast()).toHaveTextContent('Failed to create account')
    expect(router.state.location.pathname).toBe('/register/WELCOME1')
  })

  it('goes back to the invite step when the code was used meanwhile', async () => {
    const { user } = await renderRegister('/register/WELCOME1', () =>
      replyError(409, {
        detail: 'This invite code has already been used',
        code: 'INVITE_CODE_USED',
      }),
    )
    await screen.findByLabelText('username')
    await fillForm(user)
    await user.click(screen.getByRole('button', { name: '[ create account ]' }))
    await user.click(await screen.findByRole('button', { name: '[ accept & continue ]' }))

    const code = await screen.findByLabelText('invite code')
    await waitFor(() =>
      expect(code).toHaveAccessibleDescription('This invite code has already been used'),
    )
    expect(queryToasts()[0]).toHaveTextContent('Failed to create account')
  })
})
