import { request as apiRequest, type APIRequestContext, type Page } from '@playwright/test'
import { e2e } from './env'
import { expect, expectNoAxeViolations, logIn, useDemoServer, test } from './fixtures'

/** Where to save screenshots for a person to look at; none are taken when unset. */
const SHOTS = process.env.E2E_SCREENSHOTS_DIR

// Members write words longer than a phone is wide. This journey fills every kind of text a
// member or a visitor can write with such words, on a server of its own (demo data around them).
const DEMO_PORT = e2e.ownServerPort.layout
const baseURL = `http://127.0.0.1:${DEMO_PORT}`
test.use({ baseURL })
test.describe.configure({ timeout: 180_000 })
useDemoServer(DEMO_PORT)

/** `n` characters of `word` repeated: no space, nowhere to break. */
const unbroken = (n: number, word: string) => word.repeat(Math.ceil(n / word.length)).slice(0, n)

async function client() {
  const api = await apiRequest.newContext({ baseURL })
  await api.get('/api/v1/whoami/')
  return api
}

async function send(
  api: APIRequestContext,
  method: 'post' | 'put' | 'patch',
  path: string,
  data: unknown,
) {
  const { cookies } = await api.storageState()
  const csrf = cookies.find((c) => c.name === 'csrftoken')!.value
  const res = await api[method](`/api/v1${path}`, { headers: { 'X-CSRFToken': csrf }, data })
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true)
  return ((await res.json()) as { data: { id: number } }).data
}

/** A proposal time two months ahead, as the wizard writes it (MM/DD/YYYY HH:mm, New York). */
function twoMonthsAhead() {
  const day = new Date(Date.now() + 62 * 24 * 60 * 60 * 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(day.getMonth() + 1)}/${pad(day.getDate())}/${day.getFullYear()} 14:00`
}

type Seeded = { username: string; password: string; upcoming: number; past: number; poll: number }

/** Long words everywhere: a member, two proposals (one completed), chat, hindsight, and more. */
async function seedLongWords(): Promise<Seeded> {
  const member = await client()
  const username = `w${Date.now().toString(36)}`.padEnd(24, 'x')
  const password = 'password-e2e-1'
  await send(member, 'post', '/signup/', {
    username,
    email: `${unbroken(60, 'mailbox')}@${unbroken(60, 'domain')}.example.com`,
    password,
    inviteCode: e2e.clubCode,
    city: unbroken(80, 'city'),
    source: 'e2e',
  })
  const proposal = (title: string) => ({
    title: unbroken(163, title),
    podcastName: unbroken(100, 'podcast'),
    keywordOne: unbroken(40, 'keyword'),
    keywordTwo: unbroken(40, 'tagword'),
    keywordThree: unbroken(40, 'subject'),
    linkOne: `https://example.com/${unbroken(300, 'path')}`,
    scheduledStart: twoMonthsAhead(),
    description: unbroken(400, 'description'),
    podmeisterNote: unbroken(400, 'note'),
    location: 'zoom',
  })
  const upcoming = await send(member, 'post', '/propose/', proposal('title'))
  const past = await send(member, 'post', '/propose/', proposal('pasttitle'))
  await send(member, 'post', '/suggest_podcast/', {
    podcastLink: `https://example.com/${unbroken(400, 'suggested')}`,
    reason: unbroken(250, 'reason'),
  })
  await send(member, 'post', '/feedback/', {
    podcastLink: `https://example.com/${unbroken(400, 'feedback')}`,
    description: unbroken(500, 'feedback'),
  })
  await send(member, 'post', '/invite/', {
    email: `${unbroken(60, 'friend')}@${unbroken(60, 'domain')}.example.com`,
    note: unbroken(300, 'invitation'),
  })
  const visitor = await client()
  await send(visitor, 'post', '/waitlist/', {
    email: `${unbroken(60, 'waiting')}@${unbroken(60, 'domain')}.example.com`,
    how: unbroken(150, 'heard'),
    favoritePodcast: unbroken(150, 'favourite'),
  })

  // The operator moves the second one to a moment from now, completes it once it has started,
  // and saves its chat log; then the member looks back on it.
  const admin = await client()
  await send(admin, 'post', '/login/', {
    username: e2e.admin.username,
    password: e2e.admin.password,
  })
  const startsAt = new Date(Date.now() + 1_500)
  await send(admin, 'patch', `/controlpanel/podclubs/${past.id}/`, {
    scheduledStart: startsAt.toISOString(),
  })
  await expect.poll(() => Date.now(), { timeout: 10_000 }).toBeGreaterThan(startsAt.getTime())
  await send(admin, 'post', '/controlpanel/trigger/', {
    podclub_pk: past.id,
    notice_type: 'complete',
  })
  await send(admin, 'put', `/controlpanel/podclubs/${past.id}/chatlog/`, {
    chatlog: [
      `19:02:11 From ${username} to Everyone: ${unbroken(300, 'chatline')}`,
      `19:02:40 From ${unbroken(80, 'sender')} to Everyone: and a long name`,
    ].join('\n'),
  })
  await send(member, 'post', `/podclub/${past.id}/submit_hindsight/`, {
    hindsight: unbroken(400, 'hindsight'),
  })
  const poll = await send(admin, 'post', '/controlpanel/polls/', {
    title: unbroken(200, 'polltitle'),
    description: unbroken(500, 'theme'),
    expires_at: new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString(),
    options: [
      {
        title: unbroken(200, 'option'),
        podcast: unbroken(200, 'podcast'),
        description: unbroken(600, 'optiontext'),
        link: `https://example.com/${unbroken(400, 'link')}`,
      },
      { title: 'a short one' },
    ],
  })
  for (const api of [member, visitor, admin]) await api.dispose()
  return { username, password, upcoming: upcoming.id, past: past.id, poll: poll.id }
}

/**
 * What goes past the window's right edge: the page's own sideways scroll, and any element whose
 * shown part (inside the boxes that clip it) does; and, on a phone, any region that scrolls
 * sideways or any box that cuts its text off.
 */
async function overflowOf(page: Page, isPhone: boolean) {
  return page.evaluate((isPhone) => {
    const edge = window.innerWidth
    const name = (el: Element) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 90)
    const shownRight = (el: Element) => {
      let right = el.getBoundingClientRect().right
      for (let box = el.parentElement; box; box = box.parentElement)
        if (getComputedStyle(box).overflowX !== 'visible')
          right = Math.min(right, box.getBoundingClientRect().right)
      return right
    }
    const all = Array.from(document.querySelectorAll('body *'))
    // A text box scrolls its own text: not cut off.
    const cutOff = all.filter((el) => {
      if (el.matches('input, textarea, select')) return false
      const style = getComputedStyle(el)
      // Screen-reader-only text is clipped to nothing on purpose.
      return (
        style.overflowX !== 'visible' &&
        style.clipPath === 'none' &&
        el.scrollWidth > el.clientWidth + 1
      )
    })
    return {
      scroll: document.documentElement.scrollWidth - edge,
      sticksOut: all.filter((el) => shownRight(el) > edge + 1).map(name),
      cutOff: isPhone ? cutOff.map(name) : [],
    }
  }, isPhone)
}

async function expectFits(page: Page, what: string, width: number) {
  expect(await overflowOf(page, width < 640), `${what} at ${width} px`).toEqual({
    scroll: 0,
    sticksOut: [],
    cutOff: [],
  })
}

test('long words wrap inside their cards on every screen, at phone and desktop width', async ({
  page,
}) => {
  const seeded = await seedLongWords()
  const longTitle = unbroken(163, 'title')
  const member = await page.context().browser()!.newContext({ baseURL })
  const memberPage = await member.newPage()
  memberPage.on('pageerror', (err) => {
    throw err
  })
  await memberPage.emulateMedia({ reducedMotion: 'reduce' })
  await logIn(memberPage, seeded.username, seeded.password)

  const screens = [
    {
      name: 'home',
      path: '/home',
      ready: memberPage.getByRole('heading', { name: longTitle }),
    },
    {
      name: 'detail',
      path: `/podclubs/${seeded.upcoming}`,
      ready: memberPage.getByRole('heading', { level: 1, name: longTitle }),
    },
    {
      name: 'past',
      path: `/podclubs/${seeded.past}`,
      ready: memberPage.getByText(unbroken(300, 'chatline')),
    },
    {
      name: 'profile',
      path: '/profile',
      ready: memberPage.getByText(unbroken(60, 'mailbox'), { exact: false }).first(),
    },
    {
      name: 'poll',
      path: `/polls/${seeded.poll}`,
      ready: memberPage.getByRole('heading', { level: 1, name: unbroken(200, 'polltitle') }),
    },
    { name: 'about', path: '/about', ready: memberPage.getByRole('heading', { level: 1 }) },
  ]
  for (const width of [375, 1280]) {
    await memberPage.setViewportSize({ width, height: 900 })
    for (const screen of screens) {
      await memberPage.goto(screen.path)
      await expect(screen.ready).toBeVisible()
      // The member's name stays in the header's menu, whole, on a phone too.
      const menu = memberPage.getByRole('banner').getByRole('button', { name: seeded.username })
      await expect(menu.getByText(seeded.username, { exact: true })).toBeVisible()
      await expectFits(memberPage, screen.name, width)
      await expectNoAxeViolations(memberPage, `${screen.name} at ${width} px`)
      if (SHOTS)
        await memberPage.screenshot({
          path: `${SHOTS}/long-words-${screen.name}-${width}.png`,
          fullPage: true,
        })
    }
  }
  await member.close()

  // The operator's panel shows the same words: titles, names, addresses, notes.
  await logIn(page, e2e.admin.username, e2e.admin.password)
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    for (const section of ['podclubs', 'mail', 'members', 'create', 'notes']) {
      await page.goto(`/controlpanel?section=${section}`)
      await expect(page.getByRole('tabpanel')).toBeVisible()
      await expect(page.getByRole('status').filter({ hasText: 'loading' })).toHaveCount(0)
      await expectFits(page, `control panel ${section}`, width)
      if (SHOTS && width === 375)
        await page.screenshot({
          path: `${SHOTS}/long-words-control-panel-${section}-${width}.png`,
          fullPage: true,
        })
    }
  }
  await page.goto('/controlpanel?section=podclubs')
  await expect(page.getByRole('cell', { name: longTitle })).toBeVisible()
})
