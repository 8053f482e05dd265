import { TEMPLATE_IMAGE_MAX_BYTES } from '@reelgraph/shared'

/**
 * An image variable's value from a chosen file (issue 42 item 2): a PNG, JPEG or WebP read as
 * a `data:` URL, at most {@link TEMPLATE_IMAGE_MAX_BYTES} decoded, checked before it is sent
 * (the server checks again).
 */

/** The picture types an image variable takes, as the file picker's `accept` lists them. */
export const TEMPLATE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const

/** "8 MB": a byte limit in words. */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024)
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`
}

/**
 * The bytes a base64 `data:` URL carries once decoded (its padding taken off), or null when
 * it is not a base64 `data:` URL.
 */
export function dataUrlByteLength(dataUrl: string): number | null {
  const match = /^data:[^;,]*(?:;[^;,]*)*;base64,([A-Za-z0-9+/]*)(={0,2})$/.exec(dataUrl)
  if (!match) return null
  const chars = match[1]!.length + match[2]!.length
  if (chars % 4 !== 0) return null
  return (chars / 4) * 3 - match[2]!.length
}

/**
 * Why a chosen file cannot be an image variable's value, in words, or null when it can: not
 * a PNG, JPEG or WebP, or larger than {@link TEMPLATE_IMAGE_MAX_BYTES}.
 */
export function imageFileProblem(file: { type: string; size: number }): string | null {
  if (!(TEMPLATE_IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return 'Choose a PNG, JPEG or WebP picture.'
  }
  if (file.size > TEMPLATE_IMAGE_MAX_BYTES) return imageTooLargeMessage(file.size)
  return null
}

/** The message for a picture over the limit. */
function imageTooLargeMessage(bytes: number): string {
  return `This picture is ${formatMegabytes(bytes)}; a picture can be at most ${formatMegabytes(TEMPLATE_IMAGE_MAX_BYTES)}.`
}

/**
 * Why a `data:` URL cannot be sent as an image value, or null: not a base64 PNG, JPEG or WebP
 * `data:` URL, or more than {@link TEMPLATE_IMAGE_MAX_BYTES} once decoded.
 */
export function imageDataUrlProblem(dataUrl: string): string | null {
  if (!/^data:image\/(png|jpeg|webp);base64,/.test(dataUrl)) {
    return 'Choose a PNG, JPEG or WebP picture.'
  }
  const bytes = dataUrlByteLength(dataUrl)
  if (bytes === null) return 'This picture could not be read. Choose it again.'
  return bytes > TEMPLATE_IMAGE_MAX_BYTES ? imageTooLargeMessage(bytes) : null
}

/**
 * Reads `file` as a `data:` URL, after checking its type and size ({@link imageFileProblem}),
 * and checks the URL's decoded size again.
 * @throws {Error} with the reason in words when it cannot be used or read.
 */
export async function readImageValue(file: File): Promise<string> {
  const problem = imageFileProblem(file)
  if (problem) throw new Error(problem)
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(new Error('This picture could not be read. Choose it again.'))
    reader.readAsDataURL(file)
  })
  const urlProblem = imageDataUrlProblem(url)
  if (urlProblem) throw new Error(urlProblem)
  return url
}
