import { Readable } from 'node:stream'
import { randomBytes } from 'node:crypto'
import { copyFile, mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import type { AssetStorage } from './asset-storage.ts'

/** One key segment: letters, digits, dot, dash, underscore; no `.`/`..`; not hidden. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/
/** Longest key we accept, in characters. */
const MAX_KEY_LENGTH = 1024

/**
 * Checks that `key` is a safe relative path (`projects/12/abc.png`) and returns its
 * segments. Absolute paths, `..`, backslashes and empty segments are refused, so no key can
 * reach outside the storage folder.
 * @throws Error for an unsafe key.
 */
export function assetKeySegments(key: string): string[] {
  const segments = key.split('/')
  if (
    key.length === 0 ||
    key.length > MAX_KEY_LENGTH ||
    !segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..')
  ) {
    throw new Error(`Unsafe asset key: ${JSON.stringify(key.slice(0, 100))}`)
  }
  return segments
}

/**
 * Assets as files under one folder (the default: `DATA_DIR/assets`; ARCHITECTURE decision 8).
 * Writes go to a temporary file beside the target and are renamed into place, so a reader
 * never sees half a file.
 */
export class LocalAssetStorage implements AssetStorage {
  readonly root: string

  constructor(root: string) {
    this.root = resolve(root)
  }

  /** The absolute file of `key`, guaranteed to be inside {@link root}. */
  pathOf(key: string): string {
    const path = join(this.root, ...assetKeySegments(key))
    if (!path.startsWith(this.root + sep)) throw new Error('Unsafe asset key')
    return path
  }

  async put(key: string, bytes: Uint8Array, mimeType: string): Promise<void> {
    void mimeType // the database row keeps the type; a file needs none
    const path = this.pathOf(key)
    await mkdir(dirname(path), { recursive: true })
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`
    try {
      await writeFile(temp, bytes, { flag: 'wx' })
      await rename(temp, path)
    } catch (error) {
      await rm(temp, { force: true })
      throw error
    }
  }

  async putFile(key: string, source: string, mimeType: string): Promise<void> {
    void mimeType
    const path = this.pathOf(key)
    await mkdir(dirname(path), { recursive: true })
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`
    try {
      await copyFile(source, temp)
      await rename(temp, path)
    } catch (error) {
      await rm(temp, { force: true })
      throw error
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      const buffer = await readFile(this.pathOf(key))
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
  }

  async getRange(key: string, start: number, end: number): Promise<Uint8Array | null> {
    let file
    try {
      file = await open(this.pathOf(key), 'r')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
    try {
      const buffer = Buffer.alloc(Math.max(0, end - start + 1))
      const { bytesRead } = await file.read(buffer, 0, buffer.length, start)
      return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead)
    } finally {
      await file.close()
    }
  }

  async stream(key: string): Promise<ReadableStream<Uint8Array> | null> {
    let file
    try {
      file = await open(this.pathOf(key), 'r')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
    return Readable.toWeb(file.createReadStream()) as ReadableStream<Uint8Array>
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true })
  }
}
