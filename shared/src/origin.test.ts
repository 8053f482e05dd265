import { describe, expect, it } from 'vitest'
import { isAllowedOrigin } from './origin.ts'

describe('isAllowedOrigin (issue 11 item 3: one rule for REST and sync)', () => {
  const allowed = ['http://localhost:3000', 'https://app.example']

  it('allows the configured origins', () => {
    expect(isAllowedOrigin('http://localhost:3000', 'localhost:3000', allowed)).toBe(true)
    expect(isAllowedOrigin('https://app.example', 'internal:8080', allowed)).toBe(true)
  })

  it('allows an origin whose host is the Host the request was sent to', () => {
    expect(isAllowedOrigin('http://127.0.0.1:3000', '127.0.0.1:3000', allowed)).toBe(true)
    expect(isAllowedOrigin('https://proxy.example', 'PROXY.example', allowed)).toBe(true)
  })

  it('refuses other hosts, other ports, opaque and malformed origins', () => {
    expect(isAllowedOrigin('http://evil.example', '127.0.0.1:3000', allowed)).toBe(false)
    expect(isAllowedOrigin('http://127.0.0.1:4000', '127.0.0.1:3000', allowed)).toBe(false)
    expect(isAllowedOrigin('http://127.0.0.1:3000', undefined, allowed)).toBe(false)
    expect(isAllowedOrigin('null', '127.0.0.1:3000', allowed)).toBe(false)
    expect(isAllowedOrigin(undefined, 'localhost:3000', allowed)).toBe(false)
    expect(isAllowedOrigin('not a url', 'localhost:3000', allowed)).toBe(false)
    expect(isAllowedOrigin('file://localhost:3000', 'localhost:3000', allowed)).toBe(false)
  })
})
