/**
 * An unexpected console.error fails the test (see setup.ts). A test that expects one says so
 * with `expectConsoleError(/pattern/)` before the code that logs it.
 */
let expected: RegExp[] = []
let unexpected: string[] = []

export function expectConsoleError(pattern: RegExp) {
  expected.push(pattern)
}

export function recordConsoleError(text: string) {
  if (expected.some((pattern) => pattern.test(text))) return
  unexpected.push(text)
}

/** Returns what was logged without being expected, and starts the next test afresh. */
export function takeUnexpectedConsoleErrors() {
  const errors = unexpected
  unexpected = []
  expected = []
  return errors
}
