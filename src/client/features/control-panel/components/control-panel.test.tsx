import { act, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import {
  controlPanelResponseSchema,
  inviteCodesResponseSchema,
  triggerResponseSchema,
  type ControlPanel,
  type ControlPanelPodclub,
} from '#contract/control-panel'
import { superuser } from '#client/testing/fixtures'
import { reply, replyError, type Handler, type Handlers } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'
import { SECTIONS } from './control-panel'

const HOUR = 3_600_000
/** An instant `ms` from now: whether a podclub has started is judged by the browser's clock. */
const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString()

/** A podclub that started an hour ago: it can be completed, and its notice needs no asking. */
const podclub: ControlPanelPodclub = {
  id: 12,
  episode_title: 'The Sound of a Shrinking Room',
  location: 'nyc',
  podmeister: 'maya.r',
  starts_at: fromNow(-HOUR),
  pretty_date: 'Thursday, December 24',
  pretty_time: '6:30 PM',
  status: 'upcoming',
  zoom_link: '',
  seats_left: 4,
  one_week_notice_sent: true,
  one_day_notice_sent: false,
  ten_min_notice_sent: false,
  notice_sent_at: null,
}

const EMPTY_PANEL: ControlPanel = {
  all_podclubs: [],
  recently_completed: [],
  email_tracker: [],
  welcome_codes: [],
  users_this_month: [],
  waitlist: [],
  suggestions: [],
  feedback: [],
}

/** The columns of the upcoming table (spec 2, Control panel), also those of recently completed. */
const SPEC_COLUMNS = [
  'ID',
  'Title',
  'Location',
  'Podmeister',
  'Date & Time',
  '1 Week Notice',
  '1 Day Notice',
  '10 Min Notice',
  'Complete',
]

function panelOf(overrides: Partial<ControlPanel> = {}): ControlPanel {
  return { ...EMPTY_PANEL, all_podclubs: [podclub], ...overrides }
}

async function renderPanel(handlers: Handlers = {}, panel: ControlPanel = panelOf()) {
  const view = renderWithProviders({
    path: '/controlpanel',
    currentUser: superuser,
    handlers: {
      getControlPanel: () => reply(controlPanelResponseSchema, { data: panel }),
      ...handlers,
    },
  })
  await findScreenTitle('control panel')
  await screen.findByRole('heading', { name: 'Upcoming podclubs' })
  return view
}

/** A handler that waits until the test lets it answer. */
function held(answer: () => ReturnType<Handler>) {
  let release: () => void = () => {}
  const handler: Handler = () =>
    new Promise((resolve) => {
      release = () => resolve(answer())
    })
  return { handler, release: () => act(() => release()) }
}

function toastText() {
  return queryToasts().map((t) => t.textContent)
}

describe('control panel: upcoming podclubs', () => {
  it('shows every column of the spec and each notice state', async () => {
    await renderPanel()
    const table = within(screen.getByRole('region', { name: 'Upcoming podclubs' })).getByRole(
      'table',
    )
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent)
    expect(headers).toEqual(SPEC_COLUMNS)
    const [, row] = within(table).getAllByRole('row')
    const cells = within(row!).getAllByRole('cell')
    expect(cells.map((c) => c.textContent)).toEqual([
      '12',
      'The Sound of a Shrinking Room',
      'NYC',
      'maya.r',
      'Thursday, December 246:30 PM',
      'sent',
      'not sent',
      'Send Notice',
      'Mark Complete',
    ])
    // The 1-week and 1-day columns only display state.
    expect(within(cells[5]!).queryByRole('button')).toBeNull()
    expect(within(cells[6]!).queryByRole('button')).toBeNull()
  })

  it("sends the 10-minute notice: 'Sending...' while busy, then a sent check and a toast", async () => {
    const answer = held(() =>
      reply(triggerResponseSchema, { data: { ...podclub, ten_min_notice_sent: true } }),
    )
    const { user, api } = await renderPanel({ triggerNotice: answer.handler })

    await user.click(screen.getByRole('button', { name: 'Send Notice' }))
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled()
    answer.release()

    await waitFor(() => expect(toastText()).toEqual(['10-minute notice sent successfully']))
    expect(screen.queryByRole('button', { name: 'Send Notice' })).toBeNull()
    const row = screen.getAllByRole('row')[1]!
    expect(within(row).getAllByRole('cell')[7]).toHaveTextContent('sent')
    expect(api.callsTo('triggerNotice')[0]?.body).toEqual({
      podclub_pk: 12,
      notice_type: 'min',
    })
  })

  it("says 'Failed to send notice' with the server's reason", async () => {
    const { user } = await renderPanel({
      triggerNotice: () =>
        replyError(409, { detail: 'The 10-minute notice was already sent.', code: 'CONFLICT' }),
    })
    await user.click(screen.getByRole('button', { name: 'Send Notice' }))
    await waitFor(() =>
      expect(toastText()).toEqual(['Failed to send noticeThe 10-minute notice was already sent.']),
    )
    expect(screen.getByRole('button', { name: 'Send Notice' })).toBeEnabled()
  })

  it('asks before marking a podclub complete; Cancel sends nothing', async () => {
    const { user, api } = await renderPanel()
    const button = screen.getByRole('button', { name: 'Mark Complete' })
    expect(button).toHaveAccessibleDescription('The Sound of a Shrinking Room')
    await user.click(button)
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Mark this podclub complete?',
    })
    expect(dialog).toHaveAccessibleDescription(
      '‘The Sound of a Shrinking Room’ on Thursday, December 24 at 6:30 PM becomes a past podclub: its members earn cred and can post hindsights. Only a podclub that has started can be completed.',
    )
    // Focus starts on Cancel, so Enter does not complete by accident.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(api.callsTo('triggerNotice')).toEqual([])
    expect(screen.getByRole('button', { name: 'Mark Complete' })).toBeEnabled()
  })

  it('marks a podclub complete once confirmed: it leaves the upcoming list and heads the recently completed one', async () => {
    const { user, api } = await renderPanel({
      triggerNotice: () =>
        reply(triggerResponseSchema, { data: { ...podclub, status: 'completed' } }),
    })
    await user.click(screen.getByRole('button', { name: 'Mark Complete' }))
    const dialog = await screen.findByRole('alertdialog')
    await user.click(within(dialog).getByRole('button', { name: 'Yes, Mark Complete' }))

    await waitFor(() => expect(toastText()).toEqual(['podclub marked as complete']))
    // Shown once, where a refresh would show it.
    expect(screen.getByText('No upcoming podclubs.')).toBeInTheDocument()
    expect(screen.getAllByRole('cell', { name: 'The Sound of a Shrinking Room' })).toHaveLength(1)
    expect(screen.queryByRole('button', { name: 'Mark Complete' })).toBeNull()
    const completed = screen.getByRole('region', { name: 'Recently completed' })
    const [, done] = within(completed).getAllByRole('row')
    expect(within(done!).getAllByRole('cell')[0]).toHaveTextContent('12')
    expect(within(done!).getAllByRole('cell')[8]).toHaveTextContent('completed')
    // Over: nothing left to send, its notice state only.
    expect(within(done!).getAllByRole('cell')[7]).toHaveTextContent('not sent')
    expect(within(completed).queryByRole('button', { name: 'Send Notice' })).toBeNull()
    expect(api.callsTo('triggerNotice')).toHaveLength(1)
    expect(api.callsTo('triggerNotice')[0]?.body).toEqual({
      podclub_pk: 12,
      notice_type: 'complete',
    })
  })

  it('offers Mark Complete from the start only, and says so before it', async () => {
    const later = { ...podclub, id: 13, starts_at: fromNow(2 * HOUR) }
    const { api } = await renderPanel({}, panelOf({ all_podclubs: [later] }))
    const button = screen.getByRole('button', { name: 'Mark Complete' })
    expect(button).toBeDisabled()
    expect(button).toHaveAccessibleDescription('The Sound of a Shrinking Room from its start')
    expect(api.callsTo('triggerNotice')).toEqual([])
  })

  it('asks before a notice more than an hour ahead, saying what it sends, and sends it confirmed', async () => {
    const far = { ...podclub, location: 'zoom' as const, starts_at: fromNow(41 * 24 * HOUR) }
    const { user, api } = await renderPanel(
      {
        triggerNotice: () =>
          reply(triggerResponseSchema, {
            data: { ...far, notice_sent_at: new Date().toISOString() },
          }),
      },
      panelOf({ all_podclubs: [far] }),
    )
    await user.click(screen.getByRole('button', { name: 'Send Notice' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Send the notice now?' })
    expect(dialog).toHaveAccessibleDescription(
      /^‘The Sound of a Shrinking Room’: It starts in 41 days \(.*\)\. Sending the notice now e-mails its podmeister and attendees the Zoom link and says it starts in 41 days\. The 1-week, 1-day and 10-minute reminders still go out on time\.$/,
    )
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(api.callsTo('triggerNotice')).toEqual([])

    await user.click(screen.getByRole('button', { name: 'Send Notice' }))
    await user.click(await screen.findByRole('button', { name: 'Yes, Send Notice' }))
    await waitFor(() => expect(toastText()).toEqual(['10-minute notice sent successfully']))
    expect(api.callsTo('triggerNotice')[0]?.body).toEqual({
      podclub_pk: 12,
      notice_type: 'min',
      confirm: true,
    })
    // The automatic 10-minute reminder is still to come: its button stays, with the notice's date.
    expect(screen.getByRole('button', { name: 'Send Notice' })).toBeEnabled()
    expect(screen.getByText(/^notice sent /)).toBeInTheDocument()
  })

  it('lists the completed podclubs the server answers, in the columns of the upcoming table', async () => {
    const past: ControlPanelPodclub = {
      ...podclub,
      id: 7,
      episode_title: 'Letters Never Sent',
      status: 'completed',
      ten_min_notice_sent: true,
    }
    await renderPanel({}, panelOf({ all_podclubs: [], recently_completed: [past] }))
    expect(screen.getByText('No upcoming podclubs.')).toBeInTheDocument()
    const table = within(screen.getByRole('region', { name: 'Recently completed' })).getByRole(
      'table',
    )
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(SPEC_COLUMNS)
    const [, row] = within(table).getAllByRole('row')
    expect(
      within(row!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      '7',
      'Letters Never Sent',
      'NYC',
      'maya.r',
      'Thursday, December 246:30 PM',
      'sent',
      'not sent',
      'sent',
      'completed',
    ])
  })

  it("says 'Failed to complete podclub' with the server's reason when refused", async () => {
    const notYet =
      'This podclub has not started yet: it can be completed from Thursday, December 24, 2026 at 6:30 PM EST.'
    const { user } = await renderPanel({
      triggerNotice: () => replyError(409, { detail: notYet, code: 'CONFLICT' }),
    })
    await user.click(screen.getByRole('button', { name: 'Mark Complete' }))
    await user.click(await screen.findByRole('button', { name: 'Yes, Mark Complete' }))
    await waitFor(() => expect(toastText()).toEqual([`Failed to complete podclub${notYet}`]))
    expect(screen.getByRole('button', { name: 'Mark Complete' })).toBeEnabled()
    expect(screen.getByText('No completed podclubs yet.')).toBeInTheDocument()
  })
})

describe('control panel: loading, errors and empty lists', () => {
  it('says it is loading, then shows the data', async () => {
    const answer = held(() => reply(controlPanelResponseSchema, { data: panelOf() }))
    renderWithProviders({
      path: '/controlpanel',
      currentUser: superuser,
      handlers: { getControlPanel: answer.handler },
    })
    expect(await screen.findByText('loading the control panel…')).toHaveAttribute('role', 'status')
    answer.release()
    expect(
      await screen.findByRole('cell', { name: 'The Sound of a Shrinking Room' }),
    ).toBeInTheDocument()
  })

  it("shows 'Failed to fetch data' and lets the operator try again", async () => {
    let calls = 0
    const { user } = renderWithProviders({
      path: '/controlpanel',
      currentUser: superuser,
      handlers: {
        getControlPanel: () =>
          ++calls === 1 ? replyError(500) : reply(controlPanelResponseSchema, { data: panelOf() }),
      },
    })
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch data')
    await waitFor(() =>
      expect(toastText()).toEqual([
        'Failed to fetch dataInternal server error. Please try again later.',
      ]),
    )
    await user.click(screen.getByRole('button', { name: '[ try again ]' }))
    expect(
      await screen.findByRole('cell', { name: 'The Sound of a Shrinking Room' }),
    ).toBeInTheDocument()
  })

  it('keeps the data on screen when a refresh fails', async () => {
    let calls = 0
    const { user } = await renderPanel({
      getControlPanel: () =>
        ++calls === 1
          ? reply(controlPanelResponseSchema, { data: panelOf() })
          : replyError(503, { detail: 'Try again soon.', code: 'INTERNAL' }),
    })
    await user.click(screen.getByRole('button', { name: '[ refresh ]' }))
    await waitFor(() => expect(toastText()).toEqual(['Failed to fetch dataTry again soon.']))
    expect(screen.getByRole('cell', { name: 'The Sound of a Shrinking Room' })).toBeInTheDocument()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('says so when each list is empty', async () => {
    await renderPanel({}, EMPTY_PANEL)
    for (const text of [
      'No upcoming podclubs.',
      'No e-mails sent yet.',
      'No invitation codes yet.',
      'No new members this month yet.',
      'Nobody is waiting.',
      'No suggestions yet.',
      'No feedback yet.',
    ]) {
      expect(screen.getByText(text)).toBeInTheDocument()
    }
  })

  it('lists e-mail activity, codes, new users and the club lists', async () => {
    const sentAt = new Date(2026, 10, 20, 9, 15)
    const { user } = await renderPanel(
      {},
      panelOf({
        email_tracker: [
          {
            date_created: sentAt.toISOString(),
            email: 'maya@example.com',
            subject: 'Starting in 10 minutes',
            success: true,
          },
          {
            date_created: sentAt.toISOString(),
            email: 'jon@example.com',
            subject: 'Welcome',
            success: false,
          },
        ],
        welcome_codes: [
          { code: 'abc123xyz', active: true },
          { code: 'used456qq', active: false },
        ],
        users_this_month: [{ username: 'ren', email: 'ren@example.com' }],
        waitlist: [
          {
            email: 'wait@example.com',
            how: 'a friend',
            favorite_podcast: 'Radiolab',
            date_created: sentAt.toISOString(),
          },
        ],
        suggestions: [
          {
            username: 'ren',
            podcast_link: 'https://example.com/show',
            reason: 'so good',
            date_created: sentAt.toISOString(),
          },
        ],
        feedback: [
          {
            username: null,
            podcast_link: '',
            description: 'more nyc please',
            date_created: sentAt.toISOString(),
          },
        ],
      }),
    )
    await user.click(screen.getByRole('tab', { name: 'e-mail & blasts' }))
    const emails = screen.getByRole('region', { name: 'Recent email activity' })
    const rows = within(emails).getAllByRole('row').slice(1)
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Nov 20, 2026, 9:15 AM', 'maya@example.com', 'Starting in 10 minutes', 'Delivered'])
    expect(rows[1]).toHaveTextContent('Failed')

    await user.click(screen.getByRole('tab', { name: 'members & codes' }))
    const codes = screen.getByRole('region', { name: 'Invitation codes' })
    expect(within(codes).getByRole('row', { name: 'abc123xyz Active' })).toBeInTheDocument()
    expect(within(codes).getByRole('row', { name: 'used456qq Used' })).toBeInTheDocument()

    const users = screen.getByRole('list', { name: 'New users this month' })
    expect(within(users).getByRole('listitem')).toHaveTextContent('RErenren@example.com')

    expect(screen.getByRole('region', { name: 'Waitlist' })).toHaveTextContent('Radiolab')
    await user.click(screen.getByRole('tab', { name: 'suggestions & feedback' }))
    expect(
      within(screen.getByRole('region', { name: 'Suggestions' })).getByRole('link', {
        name: 'https://example.com/show',
      }),
    ).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Feedback' })).toHaveTextContent('a visitor')
  })

  it('pages the e-mail activity ten at a time, newest first', async () => {
    const email_tracker = Array.from({ length: 23 }, (_, i) => ({
      date_created: new Date(2026, 10, 20, 9, 59 - i).toISOString(),
      email: `member${i + 1}@example.com`,
      subject: `Message ${i + 1}`,
      success: true,
    }))
    const { user } = await renderPanel({}, panelOf({ email_tracker }))
    await user.click(screen.getByRole('tab', { name: 'e-mail & blasts' }))
    const emails = screen.getByRole('region', { name: 'Recent email activity' })
    const pager = screen.getByRole('navigation', { name: 'e-mail activity pages' })
    const subjects = () =>
      within(emails)
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell')[2]!.textContent)
    const newer = within(pager).getByRole('button', { name: '[ newer ]' })
    const older = within(pager).getByRole('button', { name: '[ older ]' })
    expect(subjects()).toEqual(Array.from({ length: 10 }, (_, i) => `Message ${i + 1}`))
    expect(pager).toHaveTextContent('1–10 of 23, newest first')
    expect(newer).toBeDisabled()

    await user.click(older)
    expect(subjects()[0]).toBe('Message 11')
    await user.click(older)
    expect(subjects()).toEqual(['Message 21', 'Message 22', 'Message 23'])
    expect(pager).toHaveTextContent('21–23 of 23, newest first')
    expect(older).toBeDisabled()
    await user.click(newer)
    expect(subjects()).toHaveLength(10)
    expect(pager).toHaveTextContent('11–20 of 23')
  })

  it('generates invite codes and shows them', async () => {
    const { user, api } = await renderPanel({
      createInviteCodes: () =>
        reply(inviteCodesResponseSchema, { data: { codes: ['newcode01', 'newcode02'] } }, 201),
    })
    await user.click(screen.getByRole('tab', { name: 'members & codes' }))
    const count = screen.getByLabelText('how many codes (1–100)')
    await user.clear(count)
    await user.type(count, '200')
    await user.click(screen.getByRole('button', { name: '[ generate codes ]' }))
    expect(count).toHaveAccessibleDescription('count must be a whole number from 1 to 100')
    expect(api.callsTo('createInviteCodes')).toHaveLength(0)

    await user.clear(count)
    await user.type(count, '2')
    await user.click(screen.getByRole('button', { name: '[ generate codes ]' }))
    expect(await screen.findByText('newcode02')).toBeInTheDocument()
    expect(api.callsTo('createInviteCodes')[0]?.body).toEqual({ count: 2 })
    // The panel reloads so the new codes join the table.
    await waitFor(() => expect(api.callsTo('getControlPanel')).toHaveLength(2))
  })
})

describe('control panel: sections', () => {
  const tabs = () => screen.getAllByRole('tab').map((tab) => tab.textContent)
  const selected = () => screen.getByRole('tab', { selected: true }).textContent
  const panel = () => screen.getByRole('tabpanel')

  it('shows one section at a time, opened from its tab, and the address remembers it', async () => {
    const { user, router } = await renderPanel()
    expect(screen.getByRole('tablist', { name: 'control panel sections' })).toBeInTheDocument()
    expect(tabs()).toEqual(SECTIONS.map((s) => s.label))
    expect(selected()).toBe('podclubs')
    expect(panel()).toHaveAccessibleName('podclubs')
    expect(within(panel()).getByRole('heading', { name: 'Upcoming podclubs' })).toBeVisible()
    expect(screen.queryByRole('heading', { name: 'Recent email activity' })).toBeNull()

    await user.click(screen.getByRole('tab', { name: 'e-mail & blasts' }))
    expect(selected()).toBe('e-mail & blasts')
    expect(within(panel()).getByRole('heading', { name: 'Recent email activity' })).toBeVisible()
    expect(screen.queryByRole('heading', { name: 'Upcoming podclubs' })).toBeNull()
    expect(router.state.location.search).toBe('?section=mail')
  })

  it('moves between sections with the arrow keys', async () => {
    const { user, router } = await renderPanel()
    await user.click(screen.getByRole('tab', { name: 'podclubs' }))
    await user.keyboard('{ArrowRight}')
    expect(screen.getByRole('tab', { name: 'e-mail & blasts' })).toHaveFocus()
    await waitFor(() => expect(selected()).toBe('e-mail & blasts'))
    await user.keyboard('{End}')
    await waitFor(() => expect(selected()).toBe('suggestions & feedback'))
    expect(router.state.location.search).toBe('?section=notes')
    await user.keyboard('{ArrowRight}')
    await waitFor(() => expect(selected()).toBe('podclubs'))
  })

  it('opens the section the address names, and the first for one it does not know', async () => {
    const opened = async (path: string) => {
      const view = renderWithProviders({
        path,
        currentUser: superuser,
        handlers: { getControlPanel: () => reply(controlPanelResponseSchema, { data: panelOf() }) },
      })
      await findScreenTitle('control panel')
      const tab = (await screen.findByRole('tab', { selected: true })).textContent
      view.unmount()
      return tab
    }
    expect(await opened('/controlpanel?section=members')).toBe('members & codes')
    expect(await opened('/controlpanel?section=create')).toBe('create & edit')
    expect(await opened('/controlpanel?section=nonsense')).toBe('podclubs')
  })

  it('keeps what was typed in a section while another one shows', async () => {
    const { user } = await renderPanel()
    const quick = screen.getByRole('form', { name: 'Quick Registration' })
    await user.type(within(quick).getByLabelText('Username'), 'ren')
    await user.click(screen.getByRole('tab', { name: 'create & edit' }))
    await user.click(screen.getByRole('tab', { name: 'podclubs' }))
    expect(
      within(screen.getByRole('form', { name: 'Quick Registration' })).getByLabelText('Username'),
    ).toHaveValue('ren')
  })
})
