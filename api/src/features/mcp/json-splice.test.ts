import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { JsonSplices, jsonLiteralBytes, SplicedJson } from './json-splice.ts'

/**
 * The spliced answer (issue 41 item 2, decision 030) is byte for byte the JSON-RPC answer the
 * SDK would have printed with the text in place, whatever the text holds.
 */

const TRICKY = [
  '{"nodes":[{"label":"Say \\"hi\\"","data":{"narration":"line one\nline two\ttab"}}]}',
  'back\\slash, quote " and a lone ’ curly, é, 漢字, 🐝 and \u2028 \u2029 \u0007',
  '',
]

describe('JsonSplices', () => {
  it('answers exactly what JSON.stringify would, with the text where its marker was', async () => {
    for (const tail of TRICKY) {
      const head = '{"id":7,"name":"Bees \\"2\\" 🐝"'
      const splices = new JsonSplices()
      const marker = splices.add(new SplicedJson(head, jsonLiteralBytes(tail)))
      const message = (text: string) => ({
        result: { content: [{ type: 'text', text }] },
        jsonrpc: '2.0',
        id: 3,
      })
      const sdkAnswer = new Response(JSON.stringify(message(marker)), {
        status: 200,
        headers: { 'content-type': 'application/json', 'content-length': '999' },
      })
      const spliced = await splices.apply(sdkAnswer)
      const bytes = new Uint8Array(await spliced.arrayBuffer())
      expect(Buffer.from(bytes).toString('utf8')).toBe(JSON.stringify(message(head + tail)))
      expect(spliced.status).toBe(200)
      expect(spliced.headers.get('content-type')).toBe('application/json')
      expect(spliced.headers.get('content-length')).toBeNull()
    }
  })

  it('answers the same bytes gzip-encoded when the client takes gzip', async () => {
    const tail = TRICKY[0]!.repeat(2000)
    const head = '{"id":7'
    const splices = new JsonSplices()
    const marker = splices.add(new SplicedJson(head, jsonLiteralBytes(tail)))
    const message = (text: string) => ({ result: { content: [{ type: 'text', text }] }, id: 3 })
    const sdkAnswer = new Response(JSON.stringify(message(marker)), {
      headers: { 'content-type': 'application/json' },
    })
    const spliced = await splices.apply(sdkAnswer, { gzip: true })
    expect(spliced.headers.get('content-encoding')).toBe('gzip')
    expect(spliced.headers.get('vary')).toBe('accept-encoding')
    const gz = Buffer.from(await spliced.arrayBuffer())
    expect(gunzipSync(gz).toString('utf8')).toBe(JSON.stringify(message(head + tail)))
    expect(gz.byteLength).toBeLessThan(JSON.stringify(message(head + tail)).length / 5)
  })

  it('leaves an answer without splices as it is', async () => {
    const answer = new Response('{"jsonrpc":"2.0","id":1,"result":{}}')
    expect(await new JsonSplices().apply(answer)).toBe(answer)
  })
})
