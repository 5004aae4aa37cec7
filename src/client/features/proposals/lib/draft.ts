import { EMPTY_PROPOSAL_FORM, type ProposalForm } from '#contract/proposals'

/**
 * The unsent wizard survives an accidental reload: it is kept in this tab's sessionStorage
 * (gone when the tab closes, never shared with other tabs) until it is sent.
 */
const KEY = 'podclub:propose-draft'

export function loadDraft(): ProposalForm {
  try {
    const raw = sessionStorage.getItem(KEY)
    if (!raw) return EMPTY_PROPOSAL_FORM
    const saved = JSON.parse(raw) as Record<string, unknown>
    const draft = { ...EMPTY_PROPOSAL_FORM }
    for (const key of Object.keys(EMPTY_PROPOSAL_FORM) as (keyof ProposalForm)[]) {
      const value = saved[key]
      if (typeof value === 'string') (draft as Record<string, string>)[key] = value
    }
    if (draft.location !== 'zoom' && draft.location !== 'nyc') draft.location = 'zoom'
    return draft
  } catch {
    return EMPTY_PROPOSAL_FORM
  }
}

export function saveDraft(values: Partial<ProposalForm>) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(values))
  } catch {
    // Storage full or blocked (private mode): the form still works, only without the safety net.
  }
}

export function clearDraft() {
  try {
    sessionStorage.removeItem(KEY)
  } catch {
    // Nothing to clear.
  }
}
