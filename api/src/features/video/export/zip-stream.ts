import { Zip, ZipDeflate, ZipPassThrough } from 'fflate'

/**
 * A ZIP archive made as it is read (issue 24 item 3: the export for an editor): each entry's
 * bytes are pulled from its source only when the reader wants more, so a film's media is
 * never held in memory whole and a slow download slows the reading of storage (the stream's
 * backpressure). fflate writes the archive; media entries are stored as they are (already
 * compressed), text entries deflated. No ZIP64: callers keep archives well under 4 GiB.
 */

/** One file of the archive. */
export interface ZipEntry {
  /** Its path in the archive (`/`-separated, no leading `/`). */
  name: string
  /**
   * Its bytes, or a function opening them as a stream when the archive reaches it; `signal`
   * aborts when the archive is cancelled while it opens them (a decode, a copy).
   */
  source: Uint8Array | ((signal: AbortSignal) => Promise<ReadableStream<Uint8Array>>)
  /** Deflate it (text); media is stored as it is. */
  compress?: boolean
}

/** The date stamped on every entry: the export's time. */
export interface ZipOptions {
  mtime: Date
}

/**
 * The archive of `entries`, in order, as a byte stream. Cancelling it cancels the entry
 * being read, or aborts the one being opened and cancels its stream once it is open.
 * @throws (through the stream) the error of an entry's source.
 */
export function zipStream(
  entries: readonly ZipEntry[],
  { mtime }: ZipOptions,
): ReadableStream<Uint8Array> {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let produced = 0
  let failure: Error | null = null
  const zip = new Zip((err, data, final) => {
    if (err) {
      failure = err
      return
    }
    if (data.byteLength > 0) {
      controller.enqueue(data)
      produced += 1
    }
    if (final) controller.close()
  })
  let next = 0
  let current: {
    file: ZipPassThrough | ZipDeflate
    reader: ReadableStreamDefaultReader<Uint8Array> | null
  } | null = null
  let ended = false
  const cancelled = new AbortController()

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c
      },
      async pull() {
        const before = produced
        while (produced === before && !ended) {
          if (failure) throw failure
          if (!current) {
            const entry = entries[next++]
            if (!entry) {
              ended = true
              zip.end()
              break
            }
            const file = entry.compress
              ? new ZipDeflate(entry.name, { level: 6 })
              : new ZipPassThrough(entry.name)
            file.mtime = mtime
            zip.add(file)
            if (entry.source instanceof Uint8Array) {
              file.push(entry.source, true)
              continue
            }
            const opened = await entry.source(cancelled.signal)
            if (cancelled.signal.aborted) {
              await opened.cancel(cancelled.signal.reason)
              return
            }
            current = { file, reader: opened.getReader() }
          }
          const { done, value } = await current.reader!.read()
          if (done) {
            current.file.push(new Uint8Array(0), true)
            current = null
          } else {
            current.file.push(value, false)
          }
        }
        if (failure) throw failure
      },
      async cancel(reason) {
        cancelled.abort(reason)
        await current?.reader?.cancel(reason)
      },
    },
    // One chunk ahead: a reader waiting on the network holds back storage reads.
    { highWaterMark: 1 },
  )
}
