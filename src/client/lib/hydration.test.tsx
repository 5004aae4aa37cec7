import { act, waitFor } from '@testing-library/react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ClubTime } from '#client/components/club-time'
import { PendingButton } from '#client/components/form/pending-button'
import { JoinCard } from '#client/features/home/components/join-card'
import { MemoryRouter } from 'react-router'
import {
  AfterHydration,
  markPageLive,
  resetTakeOverForTests,
  TakeOverInTurn,
  takeOver,
  whenTakenOver,
} from './hydration'

/** Markup written one way: styles as the browser writes them back (`left: 31.6%`). */
function normalized(html: string) {
  const holder = document.createElement('div')
  holder.innerHTML = html
  for (const element of holder.querySelectorAll<HTMLElement>('[style]')) {
    element.setAttribute('style', element.style.cssText)
  }
  return holder.innerHTML
}

/**
 * Draws `ui` as the server would, then takes it over as the browser does. `firstPass` is what
 * the browser draws before any effect has run: hydration trusts the server's HTML instead of
 * checking it, so where the two differ the page would keep the server's version.
 */
async function serverThenBrowser(ui: React.ReactElement) {
  const container = document.createElement('div')
  container.innerHTML = renderToString(ui)
  document.body.append(container)
  const serverHtml = normalized(container.innerHTML)
  const probe = document.createElement('div')
  const probeRoot = createRoot(probe)
  probeRoot.render(ui)
  const firstPass = normalized(probe.innerHTML)
  await act(async () => probeRoot.unmount())

  let root: ReturnType<typeof hydrateRoot> | undefined
  await act(async () => {
    root = hydrateRoot(container, ui)
  })
  return { container, serverHtml, firstPass, unmount: () => act(() => root!.unmount()) }
}

describe('taking over a page the server drew', () => {
  // As before main.tsx runs; the other tests' pages are live (testing/setup.ts).
  beforeEach(resetTakeOverForTests)
  afterEach(markPageLive)

  it('AfterHydration: the fallback in the HTML and while taking over, its children after', async () => {
    const ui = (
      <AfterHydration fallback={<p>placeholder</p>}>
        <p>the card</p>
      </AfterHydration>
    )
    const page = await serverThenBrowser(ui)
    expect(page.serverHtml).toBe('<p>placeholder</p>')
    expect(page.container.innerHTML).toBe('<p>the card</p>')
    expect(page.firstPass).toBe(page.serverHtml)
    await page.unmount()
  })

  it("ClubTime: the viewer's own time comes after, so the server's HTML matches", async () => {
    // The browser's zone (jsdom: the process's) is not New York's: force one that differs.
    const zone = vi
      .spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions')
      .mockReturnValue({ timeZone: 'Europe/Berlin' } as Intl.ResolvedDateTimeFormatOptions)
    const page = await serverThenBrowser(
      <ClubTime
        startsAt="2026-12-18T00:30:00.000Z"
        prettyDate="Thursday, December 17, 2026"
        prettyTime="7:30 PM EST"
      />,
    )
    expect(page.serverHtml).not.toContain('your time')
    await waitFor(() => expect(page.container).toHaveTextContent('your time: Fri, Dec 18, 1:30 AM'))
    expect(page.firstPass).toBe(page.serverHtml)
    zone.mockRestore()
    await page.unmount()
  })

  it('JoinCard: the same seed draws the same tagline and sparkles on both sides', async () => {
    const page = await serverThenBrowser(
      <MemoryRouter>
        <JoinCard instance={2} seed={12345} />
      </MemoryRouter>,
    )
    expect(page.firstPass).toBe(page.serverHtml)
    expect(normalized(page.container.innerHTML)).toBe(page.serverHtml)
    await page.unmount()
  })

  it('PendingButton: a form the server drew cannot be sent before the browser takes it over', async () => {
    const ui = (
      <form>
        <input name="password" defaultValue="secret" />
        <PendingButton isPending={false}>[ login ]</PendingButton>
      </form>
    )
    const page = await serverThenBrowser(ui)
    expect(page.serverHtml).toMatch(/<button[^>]* disabled=""/)
    expect(page.firstPass).toBe(page.serverHtml)
    expect(page.container.querySelector('button')).toBeEnabled()
    await page.unmount()
  })

  it('TakeOverInTurn: each part keeps its server HTML until its turn, then works', async () => {
    const clicks: number[] = []
    const ui = (
      <div>
        {[1, 2, 3].map((n) => (
          <TakeOverInTurn key={n}>
            <form
              onSubmit={(event) => {
                event.preventDefault()
                clicks.push(n)
              }}
            >
              <PendingButton isPending={false}>{`[ go ${n} ]`}</PendingButton>
            </form>
          </TakeOverInTurn>
        ))}
      </div>
    )
    const container = document.createElement('div')
    container.innerHTML = renderToString(ui)
    document.body.append(container)
    const serverHtml = container.innerHTML
    try {
      takeOver(() => hydrateRoot(container, ui))
      // Nothing taken over yet: the server's HTML, every button still disabled.
      expect(container.innerHTML).toBe(serverHtml)
      // The page says it is ready (root.tsx) only once the last part works.
      await whenTakenOver()
      for (const button of container.querySelectorAll('button')) expect(button).toBeEnabled()
      for (const button of container.querySelectorAll('button')) {
        await act(async () => button.click())
      }
      expect(clicks).toEqual([1, 2, 3])
      expect(container.querySelectorAll('button')).toHaveLength(3)
    } finally {
      container.remove()
    }
  })

  it('TakeOverInTurn: a part gone before its turn does not keep the page from being ready', async () => {
    const ui = (
      <TakeOverInTurn>
        <p>a card</p>
      </TakeOverInTurn>
    )
    const container = document.createElement('div')
    container.innerHTML = renderToString(ui)
    document.body.append(container)
    let root: ReturnType<typeof hydrateRoot> | undefined
    takeOver(() => {
      root = hydrateRoot(container, ui)
    })
    // The member leaves the page before the card's turn.
    root!.unmount()
    container.remove()
    await expect(whenTakenOver()).resolves.toBeUndefined()
  })
})
