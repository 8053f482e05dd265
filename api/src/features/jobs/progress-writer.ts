/**
 * Writes the latest of a stream of progress reports, throttled: the first report at once,
 * later ones at most every `intervalMs` after the previous write began, and always the
 * latest report in the end (a trailing write). A provider may report a value once only
 * (Automatic1111 reports each new whole percent): a report that arrives within the interval
 * must not be dropped, or the job shows the older value until it ends (issue 12).
 */
export interface ProgressWriterOptions<T> {
  /** Writes one value; its promise settles when the write is done. It must not reject. */
  write: (value: T) => Promise<void>
  /** Least time between the starts of two writes, in ms. */
  intervalMs: number
  /**
   * A report to write without waiting out the interval (never while a write is in flight):
   * a render's new stage, say. Default: none.
   */
  urgent?: ((previous: T | undefined, next: T) => boolean) | undefined
}

/**
 * A throttled writer (see {@link ProgressWriterOptions}). Writes never overlap, and a value
 * equal to the last one written (`Object.is`) is not written again.
 * @returns the function that takes each report.
 */
export function createProgressWriter<T>({
  write,
  intervalMs,
  urgent = () => false,
}: ProgressWriterOptions<T>): (value: T) => void {
  let writtenAt = -Infinity
  let writing = false
  let written: { value: T } | null = null
  let latest: { value: T } | null = null
  let timer: ReturnType<typeof setTimeout> | null = null

  const flush = (): void => {
    timer = null
    if (writing || !latest || (written && Object.is(written.value, latest.value))) return
    const wait = urgent(written?.value, latest.value) ? 0 : writtenAt + intervalMs - Date.now()
    if (wait > 0) {
      timer = setTimeout(flush, wait)
      timer.unref?.()
      return
    }
    const { value } = latest
    writing = true
    writtenAt = Date.now()
    written = { value }
    void write(value).finally(() => {
      writing = false
      flush()
    })
  }

  return (value) => {
    latest = { value }
    if (timer && urgent(written?.value, value)) clearTimeout(timer)
    else if (timer) return
    flush()
  }
}
