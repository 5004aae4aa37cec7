import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { CLUB_TIME_MESSAGES } from '#contract/club-time'
import {
  blastResponseSchema,
  controlPanelResponseSchema,
  triggerResponseSchema,
  type ControlPanelPodclub,
} from '#contract/control-panel'
import { type Job, jobResponseSchema } from '#contract/jobs'
import { superuser } from '#client/testing/fixtures'
import { reply, replyError, type Handlers } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'
import { SECTIONS, type SectionId } from './control-panel'

const podclub: ControlPanelPodclub = {
  id: 7,
  episode_title: 'What the Map Leaves Out',
  location: 'zoom',
  podmeister: 'jon.b',
  starts_at: '2026-12-24T23:30:00.000Z',
  pretty_date: 'Thursday, December 24',
  pretty_time: '6:30 PM',
  status: 'upcoming',
  zoom_link: 'https://zoom.us/j/1',
  seats_left: 4,
  one_week_notice_sent: false,
  one_day_notice_sent: false,
  ten_min_notice_sent: false,
  notice_sent_at: null,
}

/** The panel opened at one of its sections (?section=), as a link to it would. */
async function renderPanel(handlers: Handlers = {}, section: SectionId = 'mail') {
  const view = renderWithProviders({
    path: `/controlpanel?section=${section}`,
    currentUser: superuser,
    handlers: {
      getControlPanel: () =>
        reply(controlPanelResponseSchema, {
          data: {
            all_podclubs: [podclub],
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
const blastForm = (legend: string) => screen.getByRole('group', { name: legend })
const idInputs = (legend: string) =>
  [1, 2, 3].map((n) => within(blastForm(legend)).getByPlaceholderText(`podclub ID ${n}`))

describe('control panel: blasts', () => {
  it('sends a test blast, says so and clears the inputs', async () => {
    const { user, api } = await renderPanel({
      sendTestBlast: () => reply(blastResponseSchema, { data: { queued: 2 } }),
    })
    const inputs = idInputs('test blast')
    for (const [i, input] of inputs.entries()) await user.type(input, String(i + 4))
    await user.click(screen.getByRole('button', { name: '[ send test blast ]' }))

    await waitFor(() =>
      expect(toastText()).toEqual(['Test Blast SentThe test monthly blast was sent successfully.']),
    )
    expect(api.callsTo('sendTestBlast')[0]?.body).toEqual({
      podclub_1: 4,
      podclub_2: 5,
      podclub_3: 6,
    })
    for (const input of inputs) expect(input).toHaveValue(null)
  })

  it("says 'Unable to Send Test Blast' with the reason, and clears the inputs too", async () => {
    const { user } = await renderPanel({
      sendTestBlast: () =>
        replyError(404, { detail: 'podclub 9 (podclub_3) does not exist.', code: 'NOT_FOUND' }),
    })
    const inputs = idInputs('test blast')
    for (const [i, input] of inputs.entries()) await user.type(input, String(i + 7))
    await user.click(screen.getByRole('button', { name: '[ send test blast ]' }))
    await waitFor(() =>
      expect(toastText()).toEqual([
        'Unable to Send Test Blastpodclub 9 (podclub_3) does not exist.',
      ]),
    )
    for (const input of inputs) expect(input).toHaveValue(null)
  })

  it('refuses repeated ids before calling the server', async () => {
    const { user, api } = await renderPanel()
    for (const input of idInputs('test blast')) await user.type(input, '3')
    await user.click(screen.getByRole('button', { name: '[ send test blast ]' }))
    expect(blastForm('test blast')).toHaveAccessibleDescription('Choose three different podclubs')
    expect(api.callsTo('sendTestBlast')).toHaveLength(0)
  })

  it('asks before the monthly blast; Cancel sends nothing', async () => {
    const { user, api } = await renderPanel()
    for (const [i, input] of idInputs('monthly blast').entries())
      await user.type(input, String(i + 1))
    await user.click(screen.getByRole('button', { name: '[ send monthly blast ]' }))

    const dialog = await screen.findByRole('alertdialog', { name: 'Are you absolutely sure?' })
    expect(dialog).toHaveAccessibleDescription(
      'This will send the monthly blast to ALL members. This action cannot be undone.',
    )
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(api.callsTo('sendMonthlyBlast')).toHaveLength(0)
  })

  const job = (overrides: Partial<Job> = {}): Job => ({
    id: 41,
    kind: 'monthly-blast',
    status: 'queued',
    done: 0,
    total: null,
    result: null,
    error: null,
    created_at: '2026-12-01T15:00:00.000Z',
    finished_at: null,
    ...overrides,
  })

  async function confirmBlast(user: Awaited<ReturnType<typeof renderPanel>>['user']) {
    for (const [i, input] of idInputs('monthly blast').entries())
      await user.type(input, String(i + 1))
    await user.click(screen.getByRole('button', { name: '[ send monthly blast ]' }))
    const dialog = await screen.findByRole('alertdialog')
    await user.click(within(dialog).getByRole('button', { name: 'Yes, Send Monthly Blast' }))
  }

  it('queues the monthly blast once confirmed, shows its progress, then says it was sent', async () => {
    const states = [
      job({ status: 'running', done: 40, total: 120 }),
      job({ status: 'done', done: 120, total: 120, result: { queued: 120 } }),
    ]
    const { user, api } = await renderPanel({
      sendMonthlyBlast: () => reply(jobResponseSchema, { data: job() }, 202),
      getJob: () =>
        reply(jobResponseSchema, { data: states.length > 1 ? states.shift()! : states[0]! }),
    })
    const inputs = idInputs('monthly blast')
    await confirmBlast(user)

    const progress = await screen.findByText('Sending the monthly blast: 40 of 120 members')
    expect(progress.closest('[role="status"]')).not.toBeNull()
    expect(screen.getByRole('progressbar', { name: 'monthly blast progress' })).toHaveAttribute(
      'aria-valuenow',
      '33',
    )
    expect(screen.getByRole('button', { name: /send monthly blast/ })).toBeDisabled()
    expect(api.callsTo('sendMonthlyBlast')[0]?.body).toEqual({
      podclub_1: 1,
      podclub_2: 2,
      podclub_3: 3,
    })
    for (const input of inputs) expect(input).toHaveValue(null)

    await waitFor(
      () =>
        expect(toastText()).toEqual([
          'Monthly Blast SentThe monthly blast was sent successfully to all members (120 queued).',
        ]),
      { timeout: 4_000 },
    )
    expect(screen.queryByText(/Sending the monthly blast/)).toBeNull()
    expect(screen.getByRole('button', { name: '[ send monthly blast ]' })).toBeEnabled()
    expect(api.callsTo('getJob')[0]?.params.id).toBe('41')
    // Done: nothing more is asked.
    const asked = api.callsTo('getJob').length
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(api.callsTo('getJob')).toHaveLength(asked)
  })

  it("says 'Unable to Send Monthly Blast' with the reason when the job fails", async () => {
    const reason = 'podclub 2 (podclub_2) is cancelled: a blast lists upcoming podclubs only.'
    const { user } = await renderPanel({
      sendMonthlyBlast: () => reply(jobResponseSchema, { data: job() }, 202),
      getJob: () => reply(jobResponseSchema, { data: job({ status: 'failed', error: reason }) }),
    })
    await confirmBlast(user)
    await waitFor(() => expect(toastText()).toEqual([`Unable to Send Monthly Blast${reason}`]), {
      timeout: 4_000,
    })
  })

  it('goes on showing a blast in progress after a reload', async () => {
    window.sessionStorage.setItem('podclub.monthly-blast-job', '41')
    const states = [
      job({ status: 'running', done: 600, total: 9_500 }),
      job({ status: 'done', done: 9_500, total: 9_500, result: { queued: 9_500 } }),
    ]
    await renderPanel({
      getJob: () =>
        reply(jobResponseSchema, { data: states.length > 1 ? states.shift()! : states[0]! }),
    })
    await screen.findByText('Sending the monthly blast: 600 of 9,500 members')
    await waitFor(() => expect(toastText()[0]).toMatch(/^Monthly Blast Sent.*\(9500 queued\)/), {
      timeout: 4_000,
    })
    expect(window.sessionStorage.getItem('podclub.monthly-blast-job')).toBeNull()
  })

  it('asks about no job while no blast is being sent', async () => {
    const { api } = await renderPanel()
    await new Promise((resolve) => setTimeout(resolve, 1_200))
    expect(api.callsTo('getJob')).toHaveLength(0)
  })

  it("says 'Unable to Send Monthly Blast' when refused", async () => {
    const { user } = await renderPanel({
      sendMonthlyBlast: () =>
        replyError(400, {
          detail: 'podclub 1 (podclub_1) is completed: a blast lists upcoming podclubs only.',
          code: 'BAD_REQUEST',
        }),
    })
    for (const [i, input] of idInputs('monthly blast').entries())
      await user.type(input, String(i + 1))
    await user.click(screen.getByRole('button', { name: '[ send monthly blast ]' }))
    await user.click(await screen.findByRole('button', { name: 'Yes, Send Monthly Blast' }))
    await waitFor(() =>
      expect(toastText()).toEqual([
        'Unable to Send Monthly Blastpodclub 1 (podclub_1) is completed: a blast lists upcoming podclubs only.',
      ]),
    )
  })
})

describe('control panel: edit a podclub and its chat log', () => {
  it('sends only the changed fields, the date as New York MM/DD/YYYY HH:mm', async () => {
    const { user, api } = await renderCreateSection({
      updatePodclub: () => reply(triggerResponseSchema, { data: { ...podclub, location: 'nyc' } }),
    })
    await user.type(screen.getAllByLabelText('podclub ID')[0]!, '7')
    await user.type(screen.getByLabelText('new date and time (ET)'), '2027-01-15T19:30')
    await user.selectOptions(screen.getByLabelText('location'), 'nyc')
    await user.click(screen.getByRole('button', { name: '[ save podclub ]' }))

    await waitFor(() => expect(toastText()[0]).toMatch(/^podclub updated/))
    const [call] = api.callsTo('updatePodclub')
    expect(call?.params.id).toBe('7')
    expect(call?.body).toEqual({ scheduledStart: '01/15/2027 19:30', location: 'nyc' })
  })

  it("asks for a change and puts the server's field errors on their fields", async () => {
    const { user, api } = await renderCreateSection({
      updatePodclub: () => replyError(400, { scheduledStart: [CLUB_TIME_MESSAGES.past] }),
    })
    await user.type(screen.getAllByLabelText('podclub ID')[0]!, '7')
    await user.click(screen.getByRole('button', { name: '[ save podclub ]' }))
    expect(
      screen.getByText('Change at least one of scheduledStart, location, zoomLink or status'),
    ).toBeInTheDocument()
    expect(api.callsTo('updatePodclub')).toHaveLength(0)

    await user.type(screen.getByLabelText('new date and time (ET)'), '2020-01-15T19:30')
    await user.click(screen.getByRole('button', { name: '[ save podclub ]' }))
    await waitFor(() =>
      expect(screen.getByLabelText('new date and time (ET)')).toHaveAccessibleDescription(
        CLUB_TIME_MESSAGES.past,
      ),
    )
    expect(toastText()).toEqual([`Failed to update podclub${CLUB_TIME_MESSAGES.past}`])
  })

  it('refuses a time the spring-forward skips on its field, without calling the server', async () => {
    const { user, api } = await renderCreateSection()
    await user.type(screen.getAllByLabelText('podclub ID')[0]!, '7')
    await user.type(screen.getByLabelText('new date and time (ET)'), '2027-03-14T02:30')
    await user.click(screen.getByRole('button', { name: '[ save podclub ]' }))
    expect(screen.getByLabelText('new date and time (ET)')).toHaveAccessibleDescription(
      CLUB_TIME_MESSAGES.noSuchTime,
    )
    expect(api.callsTo('updatePodclub')).toHaveLength(0)
  })

  it('reads a chat log file in the page and saves it', async () => {
    const { user, api } = await renderCreateSection({
      updateChatlog: () => reply(triggerResponseSchema, { data: podclub }),
    })
    const text = '19:02:11 From maya.r to Everyone: hello\n19:03:00 From jon.b: hi'
    await user.type(screen.getAllByLabelText('podclub ID')[1]!, '7')
    await user.upload(
      screen.getByLabelText('chat log file (.txt)'),
      new File([text], 'chat.txt', { type: 'text/plain' }),
    )
    await waitFor(() => expect(screen.getByLabelText('chat log')).toHaveValue(text))
    await user.click(screen.getByRole('button', { name: '[ save chat log ]' }))

    await waitFor(() => expect(toastText()[0]).toMatch(/^Chat log saved/))
    const [call] = api.callsTo('updateChatlog')
    expect(call?.params.id).toBe('7')
    expect(call?.body).toEqual({ chatlog: text })
    expect(screen.getByLabelText('chat log')).toHaveValue('')
  })

  it('does not send an empty chat log', async () => {
    const { user, api } = await renderCreateSection()
    await user.type(screen.getAllByLabelText('podclub ID')[1]!, '7')
    await user.click(screen.getByRole('button', { name: '[ save chat log ]' }))
    expect(screen.getByLabelText('chat log')).toHaveAccessibleDescription(
      'Paste the chat log or choose its file',
    )
    expect(api.callsTo('updateChatlog')).toHaveLength(0)
  })
})
