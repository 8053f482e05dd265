/**
 * Reads `read()` until `done(value)` holds, polling every `intervalMs`, and returns that value.
 * @throws Error with the last value read when `ms` milliseconds pass first.
 */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms: number,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`Timed out; last value ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
