import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findTextProblems, TEXT_PROBLEMS, textProblem } from './text.ts'

describe('text hygiene (issue 11)', () => {
  it('finds NUL and unpaired surrogates, and nothing in well-formed text', () => {
    expect(textProblem('a\u0000b')).toBe(TEXT_PROBLEMS.nul)
    expect(textProblem('a\ud800b')).toBe(TEXT_PROBLEMS.surrogate)
    expect(textProblem('\udc00')).toBe(TEXT_PROBLEMS.surrogate)
    expect(textProblem('emoji 🎬 and ünïcödé')).toBeNull()
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(textProblem(s.replaceAll('\u0000', ''))).toBeNull()
      }),
    )
  })

  it('names the path of every bad string in a JSON value, keys included', () => {
    const body = {
      name: 'ok',
      nodes: [{ label: 'x\u0000', data: { 'k\ud800': 'v', fine: 1, text: 'y\udfff' } }],
    }
    expect(findTextProblems(body)).toEqual([
      { path: ['nodes', 0, 'label'], problem: TEXT_PROBLEMS.nul },
      { path: ['nodes', 0, 'data', 'k\ud800'], problem: TEXT_PROBLEMS.surrogate },
      { path: ['nodes', 0, 'data', 'text'], problem: TEXT_PROBLEMS.surrogate },
    ])
    expect(findTextProblems({ a: [1, true, null, 'fine'] })).toEqual([])
  })

  it('does not search the objects it is told are clean, and searches the rest', () => {
    const checked = { label: 'x\u0000' }
    const body = { nodes: [checked, { label: 'y\u0000' }] }
    expect(findTextProblems(body, 20, new Set([checked]))).toEqual([
      { path: ['nodes', 1, 'label'], problem: TEXT_PROBLEMS.nul },
    ])
  })
})
