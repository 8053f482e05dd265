/**
 * The names Windows reserves for devices (any case, with or without an extension: `con`,
 * `CON.otio`, `Com1.zip`); `COM¹`–`COM³` and `LPT¹`–`LPT³` are devices too.
 */
const RESERVED_DEVICE_NAME = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])$/i

/** Signs no file name may hold on some system: separators, wildcards, quotes, controls. */
const FORBIDDEN = /[\p{Cc}<>:"/\\|?*]+/gu

/**
 * Invisible format characters (Unicode category Cf): the bidi marks, embeddings, overrides
 * and isolates (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, U+061C), zero-width signs, the
 * byte order mark. A name holding them shows other than it is (`invoice‮fdp.exe`).
 */
const INVISIBLE = /\p{Cf}+/gu

/** Longest file name base, in characters (code points: a pair is never cut). */
export const FILE_NAME_MAX_CHARS = 80

/**
 * A name safe as a file name on every system (issue 24 item 3; issue 40 item 7): separators,
 * wildcards, quotes and C0/C1 controls become `_`; bidi and other invisible format
 * characters are dropped; runs of white space become one space; no leading dot, no trailing
 * dot or space (Windows drops them); at most {@link FILE_NAME_MAX_CHARS} characters; a
 * Windows reserved device name (`CON`, `nul.txt`, `COM1`, ...) gets a leading `_`.
 * @param name the wanted name (a project's name), any text
 * @param fallback the name when nothing of `name` is left (itself safe)
 * @returns the name, never empty
 */
export function safeFileName(name: string, fallback: string): string {
  const cleaned = name
    .replace(INVISIBLE, '')
    .replace(FORBIDDEN, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
  const short = Array.from(cleaned).slice(0, FILE_NAME_MAX_CHARS).join('')
  const trimmed = short.replace(/[. ]+$/, '').replace(/^ +/, '')
  if (!trimmed) return fallback
  const stem = trimmed.split('.')[0]!.trimEnd()
  if (!RESERVED_DEVICE_NAME.test(stem)) return trimmed
  return Array.from(`_${trimmed}`)
    .slice(0, FILE_NAME_MAX_CHARS)
    .join('')
    .replace(/[. ]+$/, '')
}
