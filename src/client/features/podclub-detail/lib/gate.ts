/** Spec 2 §4, the completed-podclub gate: what a viewer who did not attend is told. */
export const PODCLUB_GATE = {
  title: 'You are not a participant of this podclub',
  description: 'You can only view the discussion if you were registered.',
}
