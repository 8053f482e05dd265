import { MUSIC_TRACKS } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { FILM_MUSIC_MESSAGES, filmMusicSource } from './film-music.ts'

describe('filmMusicSource: the one music rule of the render and the export (issue 40 item 7)', () => {
  const url = '/api/assets/abcdefghijklmnopqrstuvwxyz234567'

  it('takes no music, a builtin track, and an audio asset of the film’s project', () => {
    expect(filmMusicSource('', null)).toEqual({ kind: 'none' })
    const track = MUSIC_TRACKS[0]
    expect(filmMusicSource(`builtin:${track}`, null)).toEqual({ kind: 'builtin', track })
    for (const mimeType of ['audio/flac', 'audio/wav']) {
      expect(filmMusicSource(url, { mimeType })).toEqual({ kind: 'asset', url })
    }
  })

  it('refuses in words an unknown track, an asset the project does not hold, and one that is no audio', () => {
    expect(filmMusicSource('builtin:kazoo', null)).toEqual({
      problem: FILM_MUSIC_MESSAGES.noSuchTrack('kazoo'),
    })
    // Another project's asset is looked up within the film's project: it is not there.
    expect(filmMusicSource(url, null)).toEqual({ problem: FILM_MUSIC_MESSAGES.gone })
    expect(filmMusicSource(url, { mimeType: 'image/png' })).toEqual({
      problem: FILM_MUSIC_MESSAGES.notAudio,
    })
    expect(filmMusicSource('http://10.0.0.1/a.wav', null)).toEqual({
      problem: FILM_MUSIC_MESSAGES.gone,
    })
  })
})
