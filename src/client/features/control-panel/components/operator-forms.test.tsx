import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { CLUB_TIME_MESSAGES } from '#contract/club-time'
import { controlPanelResponseSchema } from '#contract/control-panel'
import { registrationStateResponseSchema } from '#contract/podclubs'
import { createPollResponseSchema } from '#contract/polls'
import { createProposalResponseSchema } from '#contract/proposals'
import { superuser } from '#client/testing/fixtures'
import { reply, replyError, type Handlers } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'
import { SECTIONS, type SectionId } from './control-panel'

/** The panel opened at one of its sections (?section=), as a link to it would. */
async function renderPanel(handlers: Handlers = {}, section: SectionId = 'podclubs') {
  const view = renderWithProviders({
    path: `/controlpanel?section=${section}`,
    currentUser: superuser,
    handlers: {
      getControlPanel: () =>
        reply(controlPanelResponseSchema, {
          data: {
            all_podclubs: [],
            recently_completed: [],
            email_tracker: [],
            welcome_codes: [],
            users_this_month: [],
            waitlist: [],
            suggestions: [],
            feedback: [],
          },
        }),
      ...handlers,
    },
  })
  await findScreenTitle('control panel')
  const label = SECTIONS.find((s) => s.id === section)!.label
  await screen.findByRole('tabpanel', { name: label })
  return view
}

const renderCreateSection = (handlers: Handlers = {}) => renderPanel(handlers, 'create')

const toastText = () => queryToasts().map((t) => t.textContent)
const form = (name: string) => screen.getByRole('form', { name })

describe('control panel: quick registration', () => {
  it("registers a member, says 'User registered for podclub' and clears the form", async () => {
    const { user, api } = await renderPanel({
      quickRegister: () =>
        reply(registrationStateResponseSchema, { data: { registered: true, seats_left: 3 } }),
    })
    const quick = within(form('Quick Registration'))
    await user.type(quick.getByLabelText('podclub ID number'), '12')
    await user.type(quick.getByLabelText('Username'), 'maya.r')
    await user.click(quick.getByRole('button', { name: 'Register' }))

    await waitFor(() => expect(toastText()).toEqual(['User registered for podclub']))
    expect(api.callsTo('quickRegister')[0]?.path).toBe('/register_admin/12/maya.r/')
    expect(quick.getByLabelText('Username')).toHaveValue('')
  })

  it("says 'Registration failed' with the server's reason", async () => {
    const { user } = await renderPanel({
      quickRegister: () => replyError(409, { detail: 'No seats left', code: 'NO_SEATS_LEFT' }),
    })
    const quick = within(form('Quick Registration'))
    await user.type(quick.getByLabelText('podclub ID number'), '4')
    await user.type(quick.getByLabelText('Username'), 'jon.b')
    await user.click(quick.getByRole('button', { name: 'Register' }))
    await waitFor(() => expect(toastText()).toEqual(['Registration failedNo seats left']))
  })

  it('asks for both fields before calling the server', async () => {
    const { user, api } = await renderPanel()
    const quick = within(form('Quick Registration'))
    await user.click(quick.getByRole('button', { name: 'Register' }))
    // The form's check is asynchronous: on a busy machine it may end after the click's events.
    await waitFor(() =>
      expect(quick.getByLabelText('podclub ID number')).toHaveAccessibleDescription(
        'Enter a podclub ID number',
      ),
    )
    expect(quick.getByLabelText('Username')).toHaveAccessibleDescription('Enter a username')
    expect(api.callsTo('quickRegister')).toHaveLength(0)
  })
})

describe('control panel: create a podclub', () => {
  it('shows the proposal messages before calling the server', async () => {
    const { user, api } = await renderCreateSection()
    const create = within(form('create a podclub'))
    await user.type(create.getByLabelText('description'), 'too short')
    await user.click(create.getByRole('button', { name: '[ create podclub ]' }))
    await waitFor(() =>
      expect(create.getByLabelText('description')).toHaveAccessibleDescription(
        'Description must be at least 50 characters long',
      ),
    )
    expect(create.getByLabelText('podmeister (username)')).toHaveAccessibleDescription(
      'Podmeister username is required',
    )
    expect(api.callsTo('createOperatorPodclub')).toHaveLength(0)
  })

  it('sends every field and says the podclub was created; failures say why', async () => {
    let fail = false
    const { user, api } = await renderCreateSection({
      createOperatorPodclub: () =>
        fail
          ? replyError(400, { podmeister: ["No member is called 'nobody'."] })
          : reply(createProposalResponseSchema, {
              data: {
                id: 31,
                status: 'upcoming',
                episode_title: 'The Cathedral',
                episode_number: '',
                description: 'd',
                podmeister_note: 'n',
                podmeister: { username: 'jon.b' },
                starts_at: '2030-01-15T00:00:00.000Z',
                pretty_date: 'Monday, January 14',
                pretty_time: '7:00 PM',
                location: 'nyc',
                seats_left: 9,
                keyword_one: 'a',
                keyword_two: 'b',
                keyword_three: 'c',
                link_one: 'https://example.com',
                link_two: '',
                link_three: '',
                podcast: { name: 'Radiolab', picture_link: '' },
                api_registered_usernames: { reserved: [] },
                waitlist_count: 0,
                seat_waitlist: { waiting: [] },
              },
            }),
    })
    const create = within(form('create a podclub'))
    const fill = async (label: string, value: string) =>
      user.type(create.getByLabelText(label), value)
    await fill('episode title', 'The Cathedral')
    await fill('podcast', 'Radiolab')
    await fill('podmeister (username)', 'jon.b')
    await fill('date and time (ET)', '01/14/2030 19:00')
    await fill('keyword 1', 'a')
    await fill('keyword 2', 'b')
    await fill('keyword 3', 'c')
    await fill('link 1', 'https://example.com')
    await fill('description', 'x'.repeat(50))
    await fill('podmeister note', 'y'.repeat(50))
    await user.selectOptions(create.getByLabelText('podclub location'), 'nyc')
    await user.click(create.getByRole('button', { name: '[ create podclub ]' }))

    await waitFor(() => expect(toastText()).toEqual(['podclub createdThe Cathedral (ID 31)']))
    expect(api.callsTo('createOperatorPodclub')[0]?.body).toMatchObject({
      title: 'The Cathedral',
      podcastName: 'Radiolab',
      podmeister: 'jon.b',
      scheduledStart: '01/14/2030 19:00',
      location: 'nyc',
    })
    expect(create.getByLabelText('episode title')).toHaveValue('')

    fail = true
    await fill('episode title', 'The Cathedral')
    await fill('podcast', 'Radiolab')
    await fill('podmeister (username)', 'nobody')
    await fill('date and time (ET)', '01/14/2030 19:00')
    await fill('keyword 1', 'a')
    await fill('keyword 2', 'b')
    await fill('keyword 3', 'c')
    await fill('link 1', 'https://example.com')
    await fill('description', 'x'.repeat(50))
    await fill('podmeister note', 'y'.repeat(50))
    await user.click(create.getByRole('button', { name: '[ create podclub ]' }))
    await waitFor(() =>
      expect(toastText()).toContain("Failed to create podclubNo member is called 'nobody'."),
    )
  })
})

describe('control panel: create a poll', () => {
  it('adds and removes option rows between 2 and 10', async () => {
    const { user } = await renderCreateSection()
    const poll = within(form('create a poll'))
    expect(poll.getAllByRole('group')).toHaveLength(2)
    expect(poll.queryByRole('button', { name: /remove option/ })).toBeNull()
    for (let i = 0; i < 8; i++)
      await user.click(poll.getByRole('button', { name: '[ add option ]' }))
    expect(poll.getAllByRole('group')).toHaveLength(10)
    expect(poll.queryByRole('button', { name: '[ add option ]' })).toBeNull()
    await user.click(poll.getByRole('button', { name: '[ remove option 3 ]' }))
    expect(poll.getAllByRole('group')).toHaveLength(9)
  })

  it('sends the poll with its options and says so; a refusal says why', async () => {
    let fail = false
    const { user, api } = await renderCreateSection({
      createPoll: () =>
        fail
          ? replyError(400, { expires_at: [CLUB_TIME_MESSAGES.past] })
          : reply(
              createPollResponseSchema,
              {
                data: {
                  id: 5,
                  title: 'January deep dive',
                  description: '',
                  pretty_date: 'Monday, January 14, 2030',
                  pretty_time: '7:00 PM EST',
                  is_active: true,
                  is_expired: false,
                  expires_at: '2030-01-15T00:00:00.000Z',
                  total_votes: 0,
                  results: [],
                  vote_code_valid: null,
                  vote_code_error: null,
                },
              },
              201,
            ),
    })
    const poll = within(form('create a poll'))
    await user.type(poll.getByLabelText('poll title'), 'January deep dive')
    await user.type(poll.getByLabelText('theme / description'), 'cities')
    await user.type(poll.getByLabelText('voting closes (ET)'), '2030-01-14T19:00')
    await user.type(poll.getByLabelText('option 1 title'), 'The Cathedral')
    await user.type(poll.getByLabelText('option 1 podcast'), 'Radiolab')
    await user.type(poll.getByLabelText('option 2 title'), 'The Map')
    await user.click(poll.getByRole('button', { name: '[ create poll ]' }))

    await waitFor(() => expect(toastText()).toEqual(['Poll createdJanuary deep dive (ID 5)']))
    const body = api.callsTo('createPoll')[0]?.body as {
      expires_at: string
      options: unknown[]
    }
    expect(body).toMatchObject({ title: 'January deep dive', description: 'cities' })
    // 19:00 in New York in January is EST: midnight UTC.
    expect(body.expires_at).toBe('2030-01-15T00:00:00.000Z')
    expect(body.options).toEqual([
      { title: 'The Cathedral', podcast: 'Radiolab', description: '', link: '' },
      { title: 'The Map', podcast: '', description: '', link: '' },
    ])

    fail = true
    await user.type(poll.getByLabelText('poll title'), 'Again')
    await user.type(poll.getByLabelText('voting closes (ET)'), '2030-01-14T19:00')
    await user.type(poll.getByLabelText('option 1 title'), 'A')
    await user.type(poll.getByLabelText('option 2 title'), 'B')
    await user.click(poll.getByRole('button', { name: '[ create poll ]' }))
    await waitFor(() =>
      expect(toastText()).toContain(`Failed to create poll${CLUB_TIME_MESSAGES.past}`),
    )
  })

  it('needs option titles before calling the server', async () => {
    const { user, api } = await renderCreateSection()
    const poll = within(form('create a poll'))
    await user.type(poll.getByLabelText('poll title'), 'January')
    await user.type(poll.getByLabelText('voting closes (ET)'), '2030-01-14T19:00')
    await user.click(poll.getByRole('button', { name: '[ create poll ]' }))
    expect(poll.getByLabelText('option 1 title')).toHaveAccessibleDescription(
      'Option title is required',
    )
    expect(api.callsTo('createPoll')).toHaveLength(0)
  })
})
