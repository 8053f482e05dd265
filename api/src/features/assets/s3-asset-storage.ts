import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3'
import type { AssetStorage } from './asset-storage.ts'
import { assetKeySegments } from './local-asset-storage.ts'

/** Settings of {@link S3AssetStorage} (from `S3_*` in env.ts). */
export interface S3AssetStorageOptions {
  bucket: string
  /** e.g. `http://127.0.0.1:9000` for MinIO; omit for AWS. */
  endpoint?: string | undefined
  region: string
  accessKeyId?: string | undefined
  secretAccessKey?: string | undefined
  /** Path-style URLs (`endpoint/bucket/key`): MinIO and most self-hosted stores need them. */
  forcePathStyle: boolean
  /** Keys are written under this prefix, e.g. `reelgraph/`. */
  prefix?: string
}

/** An S3-compatible bucket as asset storage (when `S3_BUCKET` is set; ARCHITECTURE decision 8). */
export class S3AssetStorage implements AssetStorage {
  readonly client: S3Client
  private readonly bucket: string
  private readonly prefix: string

  constructor(options: S3AssetStorageOptions) {
    const config: S3ClientConfig = {
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      // Checksums only where S3 requires them: many S3-compatible stores reject or ignore
      // the newer flexible-checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }
    if (options.endpoint) config.endpoint = options.endpoint
    if (options.accessKeyId && options.secretAccessKey) {
      config.credentials = {
        accessKeyId: options.accessKeyId,
        secretAccessKey: options.secretAccessKey,
      }
    }
    this.client = new S3Client(config)
    this.bucket = options.bucket
    this.prefix = options.prefix ?? ''
  }

  private keyOf(key: string): string {
    return this.prefix + assetKeySegments(key).join('/')
  }

  async put(key: string, bytes: Uint8Array, mimeType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(key),
        Body: bytes,
        ContentType: mimeType,
        ContentLength: bytes.byteLength,
      }),
    )
  }

  async putFile(key: string, path: string, mimeType: string): Promise<void> {
    const { size } = await stat(path)
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(key),
        Body: createReadStream(path),
        ContentType: mimeType,
        ContentLength: size,
      }),
    )
  }

  get(key: string): Promise<Uint8Array | null> {
    return this.read(key)
  }

  async stream(key: string): Promise<ReadableStream<Uint8Array> | null> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }),
      )
      return out.Body ? (out.Body.transformToWebStream() as ReadableStream<Uint8Array>) : null
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') {
        return null
      }
      throw error
    }
  }

  getRange(key: string, start: number, end: number): Promise<Uint8Array | null> {
    return this.read(key, `bytes=${start}-${end}`)
  }

  private async read(key: string, range?: string): Promise<Uint8Array | null> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(key),
          ...(range ? { Range: range } : {}),
        }),
      )
      if (!out.Body) return null
      return await out.Body.transformToByteArray()
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') {
        return null
      }
      throw error
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }))
  }
}
