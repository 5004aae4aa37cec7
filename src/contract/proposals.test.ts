import { describe, expect, it } from 'vitest'
import {
  EMPTY_PROPOSAL_FORM,
  PROPOSAL_MESSAGES,
  proposalDayRange,
  proposalFormSchema,
  proposalStepSchemas,
  toProposalPayload,
  createProposalBodySchema,
} from './proposals'

const now = () => new Date('2026-02-08T01:00:00Z') // February 7, 20:00 in New York
const steps = proposalStepSchemas(now)

const messagesOf = (result: {
  success: boolean
  error?: { issues: { path: PropertyKey[]; message: string }[] }
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]))

describe('the wizard step schemas', () => {
  it('step 1 checks the episode and the podcast; the number is optional', () => {
    expect(messagesOf(steps[0].safeParse(EMPTY_PROPOSAL_FORM))).toEqual({
      episode: PROPOSAL_MESSAGES.episode,
      podcast: PROPOSAL_MESSAGES.podcast,
    })
    expect(steps[0].safeParse({ episode: 'A', podcast: 'B', episodeNumber: '' }).success).toBe(true)
    expect(steps[0].safeParse({ episode: '   ', podcast: 'B', episodeNumber: '' }).success).toBe(
      false,
    )
  })

  it('step 2 needs three keywords and link 1; links 2 and 3 may be empty but not invalid', () => {
    expect(messagesOf(steps[1].safeParse(EMPTY_PROPOSAL_FORM))).toEqual({
      keyword1: PROPOSAL_MESSAGES.keyword1,
      keyword2: PROPOSAL_MESSAGES.keyword2,
      keyword3: PROPOSAL_MESSAGES.keyword3,
      link1: PROPOSAL_MESSAGES.url,
    })
    const ok = {
      keyword1: 'a',
      keyword2: 'b',
      keyword3: 'c',
      link1: 'https://x.com',
      link2: '',
      link3: '',
    }
    expect(steps[1].safeParse(ok).success).toBe(true)
    expect(messagesOf(steps[1].safeParse({ ...ok, link2: 'ftp://x.com', link3: 'nope' }))).toEqual({
      link2: PROPOSAL_MESSAGES.url,
      link3: PROPOSAL_MESSAGES.url,
    })
  })

  it('step 3 needs 50 characters in the description and the note', () => {
    expect(
      messagesOf(steps[2].safeParse({ description: 'x'.repeat(49), podmeisterNote: '' })),
    ).toEqual({
      description: PROPOSAL_MESSAGES.description,
      podmeisterNote: PROPOSAL_MESSAGES.podmeisterNote,
    })
    expect(
      steps[2].safeParse({ description: 'x'.repeat(50), podmeisterNote: 'y'.repeat(50) }).success,
    ).toBe(true)
  })

  it('step 4 needs a date and time, on the hour or half hour, one to seven months ahead', () => {
    const check = (scheduledStart: string, location = 'zoom') =>
      messagesOf(steps[3].safeParse({ scheduledStart, location }))
    expect(check('')).toEqual({ scheduledStart: PROPOSAL_MESSAGES.scheduledStart })
    expect(check('03/10/2026 14:15')).toEqual({ scheduledStart: PROPOSAL_MESSAGES.halfHour })
    expect(check('03/06/2026 14:00')).toEqual({ scheduledStart: PROPOSAL_MESSAGES.tooSoon })
    expect(check('09/08/2026 14:00')).toEqual({ scheduledStart: PROPOSAL_MESSAGES.tooLate })
    expect(check('03/08/2026 02:00')).toEqual({ scheduledStart: PROPOSAL_MESSAGES.noSuchTime })
    expect(check('03/07/2026 14:00')).toEqual({})
    expect(check('03/07/2026 14:00', 'mars')).toEqual({ location: PROPOSAL_MESSAGES.location })
  })

  it('the whole form maps onto the payload the server accepts', () => {
    const form = {
      ...EMPTY_PROPOSAL_FORM,
      episode: 'E',
      podcast: 'P',
      keyword1: 'a',
      keyword2: 'b',
      keyword3: 'c',
      link1: 'https://x.com',
      description: 'd'.repeat(50),
      podmeisterNote: 'n'.repeat(50),
      scheduledStart: '04/01/2026 19:30',
    }
    expect(proposalFormSchema(now).safeParse(form).success).toBe(true)
    const payload = createProposalBodySchema(now).parse(toProposalPayload(form))
    expect(payload).toMatchObject({ title: 'E', podcastName: 'P', location: 'zoom' })
  })
})

describe('the proposal window', () => {
  it('takes the day range from New York’s calendar, not UTC’s', () => {
    expect(proposalDayRange(now())).toEqual({ first: '2026-03-07', last: '2026-09-07' })
    expect(proposalDayRange(new Date('2026-08-31T12:00:00Z'))).toEqual({
      first: '2026-09-30',
      last: '2027-03-31',
    })
  })
})
