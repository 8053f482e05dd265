import type { Env } from '../../env.ts'
import type { AssetStorage } from './asset-storage.ts'

/** The asset storage chosen by configuration: S3 when `S3_BUCKET` is set, else `DATA_DIR/assets`. */
export function createAssetStorage(env: Env): AssetStorage {
  void env
  // Replaced by the real storages in this next commits.
  const unavailable = () => Promise.reject(new Error('Asset storage is not available yet.'))
  return { put: unavailable, get: unavailable, delete: unavailable }
}
