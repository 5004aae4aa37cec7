/**
 * Spec 2 §4, the completed-podclub gate: what a viewer who did not attend is told. A visitor may
 * be an attendee who is not logged in (a link from an e-mail): they are asked to log in instead.
 */
export const PODCLUB_GATE = {
  title: 'You are not a participant of this podclub',
  description: 'You can only view the discussion if you were registered.',
}
export const PODCLUB_GATE_LOGIN = {
  title: 'Log in to see this discussion',
  description: 'Its hindsights and chat log are for the members who took part.',
}
