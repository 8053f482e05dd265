import { isAbsolute } from 'node:path'
import { RenderError } from './errors.ts'

/**
 * Returns `path` when it is absolute, else throws: every path the renderer hands to ffmpeg
 * or writes into a file ffmpeg reads (a concat list) must be absolute, because ffmpeg
 * resolves a relative one against its own notion of "here" (the concat demuxer: the list's
 * folder), not the process's working directory. Settings are made absolute once, where
 * they are parsed (each app's `env.ts`), so a relative path here is a bug upstream.
 * @param what what the path is, for the message ("a concat list entry")
 * @throws RenderError `invalid-input` naming `what` and the path
 * @see issue 20 item 1
 */
export function absolutePath(path: string, what: string): string {
  if (!isAbsolute(path)) {
    throw new RenderError(
      'invalid-input',
      `${what} must be an absolute path, not ${JSON.stringify(path)} (ffmpeg would read it against another folder)`,
    )
  }
  return path
}
