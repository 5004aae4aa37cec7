import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { findScreenTitle, renderWithProviders, testPublicConfig } from '#client/testing/render'
import { alignmentCentres } from './invite-qr-code'

describe('QR invite page', () => {
  it('draws a 200×200 code of the invite link from the server, with the link as text', async () => {
    renderWithProviders({ path: '/qr-invite' })
    await findScreenTitle('welcome to the club!')
    const code = await screen.findByRole('img', { name: /QR code of the invite link/ })
    expect(code).toHaveAccessibleName(`QR code of the invite link ${testPublicConfig.invite_link}`)
    expect(code).toHaveAttribute('width', '200')
    expect(code).toHaveAttribute('height', '200')
    // Dark green dots, black square corner markers on white.
    expect(code.querySelector('rect')).toHaveAttribute('fill', '#ffffff')
    expect(code.querySelectorAll('g[fill="#000000"]')).toHaveLength(3)
    expect(code.querySelectorAll('g[fill="#1d4a36"] circle').length).toBeGreaterThan(50)
    expect(screen.getByRole('link', { name: testPublicConfig.invite_link })).toHaveAttribute(
      'href',
      testPublicConfig.invite_link,
    )
  })
})

describe('alignment patterns', () => {
  it('sit where ISO 18004 puts them', () => {
    expect(alignmentCentres(1)).toEqual([])
    expect(alignmentCentres(2)).toEqual([[18, 18]])
    expect(alignmentCentres(4)).toEqual([[26, 26]])
    // Version 7: rows and columns 6, 22, 38, without the three finder corners.
    expect(alignmentCentres(7)).toEqual([
      [22, 6],
      [6, 22],
      [22, 22],
      [38, 22],
      [22, 38],
      [38, 38],
    ])
  })
})
