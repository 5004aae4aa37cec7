/**
 * Runs `work` and fails if anything in this process threw where nobody catches it meanwhile
 * (or within `graceMs` after): an 'error' event without a listener, an uncaught exception or an
 * unhandled rejection. In a server each of those ends the process.
 */
export async function expectNothingUncaught<T>(work: () => Promise<T>, graceMs = 300): Promise<T> {
  const caught: unknown[] = []
  const onError = (err: unknown) => caught.push(err)
  process.on('uncaughtException', onError)
  process.on('unhandledRejection', onError)
  try {
    const result = await work()
    await new Promise((resolve) => setTimeout(resolve, graceMs))
    if (caught.length > 0) {
      throw new Error(
        `uncaught in this process: ${caught.map((e) => (e instanceof Error ? e.stack : String(e))).join('\n')}`,
      )
    }
    return result
  } finally {
    process.off('uncaughtException', onError)
    process.off('unhandledRejection', onError)
  }
}
