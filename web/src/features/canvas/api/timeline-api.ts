import {
  ASSET_URL_PATTERN,
  type AudioUpload,
  audioUploadOutput,
  type NarrationsOutput,
  narrationsOutput,
} from '@reelgraph/shared'
import { useMutation, useQuery } from '@tanstack/react-query'
import { api, type ApiGetPath, fileBody, getQueryFn, parseAnswer } from '@/lib/api-client'

/**
 * The timeline panel's calls (issue 24 item 1): each scene's narration (lengths, words and
 * WAVs for the narration edges, the waveform and the preview), the narration audio itself,
 * and a music upload. No toasts here: the panel says what went wrong.
 */

/**
 * `GET /api/video/narrations?projectId=&nodeId=`: each scene's narration as Video node
 * `nodeId` would speak it now; asked again when `inputsKey` (the inputs' hash and the newest
 * take) changes.
 */
export function useNarrations(
  target: { projectId: number | null; nodeId: string },
  inputsKey: string,
  enabled = true,
) {
  const query = { projectId: String(target.projectId), nodeId: target.nodeId }
  return useQuery<NarrationsOutput>({
    queryKey: ['/video/narrations', query, inputsKey] satisfies [ApiGetPath, ...unknown[]],
    queryFn: getQueryFn({
      on401: 'throw',
      schema: narrationsOutput,
      what: 'the narrations',
      call: ({ signal }) => api.GET('/video/narrations', { params: { query }, signal }),
    }),
    enabled: enabled && target.projectId !== null,
  })
}

/** The id of an asset URL the server handed out (shared's `ASSET_URL_PATTERN`), else null. */
export function assetIdOf(url: string | null): string | null {
  return url !== null && ASSET_URL_PATTERN.test(url) ? url.slice(url.lastIndexOf('/') + 1) : null
}

/**
 * A narration WAV's bytes (`wavUrl`, an asset URL of the narrations answer, read through
 * `GET /api/assets/{id}`), kept while the app runs: it never changes. Off for anything but
 * an asset URL.
 */
export function useNarrationAudio(wavUrl: string | null) {
  const id = assetIdOf(wavUrl)
  return useQuery<ArrayBuffer>({
    queryKey: ['/assets/{id}', id, 'bytes'] satisfies [ApiGetPath, ...unknown[]],
    queryFn: async ({ signal }) =>
      (
        await api.GET('/assets/{id}', {
          params: { path: { id: id ?? '' } },
          parseAs: 'arrayBuffer',
          signal,
        })
      ).data ?? new ArrayBuffer(0),
    enabled: id !== null,
    staleTime: Number.POSITIVE_INFINITY,
  })
}

/**
 * `POST /api/assets/audio?projectId=` with the file as the body: music for the timeline,
 * re-encoded by the server to FLAC (lossless); a file that is not audio is a 400 whose message says
 * so (`ApiError.serverMessage`).
 */
export function useUploadAudio() {
  return useMutation<AudioUpload, Error, { projectId: number; file: File }>({
    mutationFn: async ({ projectId, file }) => {
      const { data } = await api.POST('/assets/audio', {
        params: { query: { projectId: String(projectId) } },
        // A file the browser does not call audio goes as bytes: the server's probe decides.
        ...fileBody(file, file.type.startsWith('audio/') ? file.type : 'application/octet-stream'),
      })
      return parseAnswer(audioUploadOutput, data, 'the upload')
    },
  })
}
