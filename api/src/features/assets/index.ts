import { join } from 'node:path'
import type { Env } from '../../env.ts'
import type { AssetStorage } from './asset-storage.ts'
import { LocalAssetStorage } from './local-asset-storage.ts'
import { S3AssetStorage } from './s3-asset-storage.ts'

export type { AssetStorage } from './asset-storage.ts'
export { LocalAssetStorage } from './local-asset-storage.ts'
export { S3AssetStorage } from './s3-asset-storage.ts'

/**
 * The asset storage chosen by configuration (ARCHITECTURE decision 8): an S3-compatible
 * bucket when `S3_BUCKET` is set, else files under `DATA_DIR/assets`.
 */
export function createAssetStorage(env: Env): AssetStorage {
  if (env.S3_BUCKET) {
    return new S3AssetStorage({
      bucket: env.S3_BUCKET,
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    })
  }
  return new LocalAssetStorage(join(env.DATA_DIR, 'assets'))
}
