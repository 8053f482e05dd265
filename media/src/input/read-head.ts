import { open } from 'node:fs/promises'

/**
 * The first `bytes` bytes of the file at `path` (fewer when it is shorter), read without
 * reading the rest: a playlist check, a FLAC's STREAMINFO, a WAV's header.
 * @throws the file system's error when it cannot be read.
 * @see issue 40 items 4 and 5
 */
export async function readHead(path: string, bytes: number): Promise<Uint8Array> {
  const file = await open(path, 'r')
  try {
    const buffer = new Uint8Array(bytes)
    const { bytesRead } = await file.read(buffer, 0, bytes, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await file.close()
  }
}
