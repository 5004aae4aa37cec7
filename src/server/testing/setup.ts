import { afterEach, beforeEach, vi } from 'vitest'

// An unexpected console.error fails a test; a test that expects one mocks console.error itself.
let errorSpy: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  errorSpy = vi.spyOn(console, 'error')
})
afterEach(() => {
  const calls = errorSpy.mock.calls
  errorSpy.mockRestore()
  if (calls.length > 0 && !vi.isMockFunction(console.error)) {
    throw new Error(
      `Unexpected console.error: ${calls.map((c: unknown[]) => c.join(' ')).join('\n')}`,
    )
  }
})
