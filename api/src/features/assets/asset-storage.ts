/**
 * Where generated files' bytes live (ARCHITECTURE decision 8; issue 4 item 4): a folder
 * (`DATA_DIR/assets`, the default) or an S3-compatible bucket when `S3_*` is set.
 * Keys are opaque strings chosen by the caller (e.g. `projects/12/<asset id>.png`).
 */
export interface AssetStorage {
  /**
   * Stores the file at `path` under `key`, replacing any, without holding it in memory (a
   * rendered video; issue 13 item 4: a render worker's peak memory is bounded).
   */
  putFile(key: string, path: string, mimeType: string): Promise<void>
  /** Stores bytes under `key`, replacing any. */
  put(key: string, bytes: Uint8Array, mimeType: string): Promise<void>
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Uint8Array | null>
  /**
   * Bytes `start`..`end` (inclusive, within the stored length) under `key`, or null when
   * there are none: a video seeks without its whole file being read (issue 13 item 4).
   */
  getRange(key: string, start: number, end: number): Promise<Uint8Array | null>
  /** The bytes under `key` as a stream (a whole video is served without holding it), or null. */
  stream(key: string): Promise<ReadableStream<Uint8Array> | null>
  /** Removes `key`; missing keys are fine. */
  delete(key: string): Promise<void>
}
