import { afterEach, describe, expect, it, vi } from 'vitest'
import { scrollForNavigation } from './scroll'

describe('scrollForNavigation', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('scrolls to the top when there is no hash', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo')
    scrollForNavigation('')
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0 }))
  })

  it('scrolls smoothly to the anchor the hash names', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo')
    document.body.innerHTML = '<section id="contact">contact</section>'
    const target = document.getElementById('contact') as HTMLElement
    const scrollIntoView = vi.spyOn(target, 'scrollIntoView')

    scrollForNavigation('#contact')

    expect(scrollIntoView).toHaveBeenCalledWith(expect.objectContaining({ behavior: 'smooth' }))
    expect(scrollTo).not.toHaveBeenCalled()
  })

  it('waits for an anchor that renders after the navigation', async () => {
    const stop = scrollForNavigation('#late')
    const late = document.createElement('div')
    late.id = 'late'
    const scrollIntoView = vi.spyOn(late, 'scrollIntoView')
    document.body.append(late)

    await vi.waitFor(() =>
      expect(scrollIntoView).toHaveBeenCalledWith(expect.objectContaining({ behavior: 'smooth' })),
    )
    stop()
  })
})
