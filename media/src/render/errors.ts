/** Why a render failed (abort aside: a cancelled render rejects with the signal's reason). */
export type RenderErrorCode =
  /** No ffmpeg could be found or run (FFMPEG_PATH, PATH, the optional static build). */
  | 'ffmpeg-not-found'
  /** The ffmpeg found lacks a filter or encoder the renderer needs. */
  | 'ffmpeg-unsupported'
  /** ffmpeg exited with an error; the message ends with the tail of its stderr. */
  | 'ffmpeg-failed'
  /** An input (image, WAV, cue, option) is not usable. */
  | 'invalid-input'

/**
 * The one error the renderer throws (cancellation aside).
 * @see issue 13 item 3
 */
export class RenderError extends Error {
  override name = 'RenderError'
  readonly code: RenderErrorCode

  constructor(code: RenderErrorCode, message: string, options?: ErrorOptions) {
    super(message, options)
    this.code = code
  }
}
