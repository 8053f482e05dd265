import {
  type AudioUpload,
  audioUploadOutput,
  type NarrationsOutput,
  narrationsOutput,
} from '@reelgraph/shared'
import { useMutation, useQuery } from '@tanstack/react-query'
import { apiBlob, apiRequest, apiUpload, parseAnswer } from '@/lib/api-client'

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
  const url = `/api/video/narrations?projectId=${target.projectId}&nodeId=${encodeURIComponent(target.nodeId)}`
  return useQuery<NarrationsOutput>({
    queryKey: [url, inputsKey],
    queryFn: async ({ signal }) =>
      parseAnswer(
        narrationsOutput,
        await apiRequest<unknown>('GET', url, undefined, { signal }),
        'the narrations',
      ),
    enabled: enabled && target.projectId !== null,
  })
}

/** A narration WAV's bytes (`/api/assets/<id>`), kept while the app runs: it never changes. */
export function useNarrationAudio(wavUrl: string | null) {
  return useQuery<ArrayBuffer>({
    queryKey: [wavUrl ?? '', 'bytes'],
    queryFn: async ({ signal }) =>
      (await apiBlob('GET', wavUrl!, undefined, { signal })).arrayBuffer(),
    enabled: wavUrl !== null,
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
    mutationFn: async ({ projectId, file }) =>
      parseAnswer(
        audioUploadOutput,
        // A file the browser does not call audio goes as bytes: the server's probe decides.
        await apiUpload<unknown>(`/api/assets/audio?projectId=${projectId}`, file, {
          contentType: file.type.startsWith('audio/') ? file.type : 'application/octet-stream',
        }),
        'the upload',
      ),
  })
}
