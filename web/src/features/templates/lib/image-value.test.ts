import { TEMPLATE_IMAGE_MAX_BYTES } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import {
  dataUrlByteLength,
  formatMegabytes,
  imageDataUrlProblem,
  imageFileProblem,
} from './image-value'

/** A base64 `data:` URL of `bytes` bytes. */
function dataUrlOf(bytes: number, type = 'image/png'): string {
  return `data:${type};base64,${Buffer.alloc(bytes, 7).toString('base64')}`
}

describe('dataUrlByteLength', () => {
  it('gives the decoded size whatever the padding', () => {
    for (const bytes of [0, 1, 2, 3, 4, 5, 1000, 1001]) {
      expect(dataUrlByteLength(dataUrlOf(bytes))).toBe(bytes)
    }
  })
  it('is null for what is not a base64 data URL', () => {
    expect(dataUrlByteLength('/api/assets/abc')).toBeNull()
    expect(dataUrlByteLength('data:image/png,plain')).toBeNull()
    expect(dataUrlByteLength('data:image/png;base64,abc')).toBeNull()
  })
})

describe('imageDataUrlProblem', () => {
  it('takes a PNG, JPEG or WebP up to the limit', () => {
    expect(imageDataUrlProblem(dataUrlOf(TEMPLATE_IMAGE_MAX_BYTES))).toBeNull()
    expect(imageDataUrlProblem(dataUrlOf(10, 'image/jpeg'))).toBeNull()
    expect(imageDataUrlProblem(dataUrlOf(10, 'image/webp'))).toBeNull()
  })
  it('refuses one byte over the limit, naming both sizes', () => {
    expect(imageDataUrlProblem(dataUrlOf(TEMPLATE_IMAGE_MAX_BYTES + 1))).toBe(
      `This picture is 8.0 MB; a picture can be at most ${formatMegabytes(TEMPLATE_IMAGE_MAX_BYTES)}.`,
    )
  })
  it('refuses another picture type', () => {
    expect(imageDataUrlProblem(dataUrlOf(10, 'image/gif'))).toBe(
      'Choose a PNG, JPEG or WebP picture.',
    )
  })
})

describe('imageFileProblem', () => {
  it('checks a chosen file’s type and size before it is read', () => {
    expect(imageFileProblem({ type: 'image/png', size: 1000 })).toBeNull()
    expect(imageFileProblem({ type: 'image/svg+xml', size: 1000 })).toBe(
      'Choose a PNG, JPEG or WebP picture.',
    )
    expect(imageFileProblem({ type: 'image/jpeg', size: 12 * 1024 * 1024 })).toBe(
      'This picture is 12 MB; a picture can be at most 8 MB.',
    )
  })
})
