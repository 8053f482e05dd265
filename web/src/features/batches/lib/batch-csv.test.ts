import { describe, expect, it } from 'vitest'
import {
  batchCsvHeader,
  batchExampleCsv,
  batchExampleFileName,
  csvDataUrl,
  csvField,
} from './batch-csv'

const variable = (name: string, example: string, label = name) => ({ name, label, example })

describe('csvField', () => {
  it('leaves plain text as it is', () => {
    expect(csvField('How honeybees make honey')).toBe('How honeybees make honey')
  })
  it('quotes commas, quotes, line breaks and edge spaces, doubling inner quotes', () => {
    expect(csvField('Tides, explained')).toBe('"Tides, explained"')
    expect(csvField('The "best" coffee')).toBe('"The ""best"" coffee"')
    expect(csvField('one\ntwo')).toBe('"one\ntwo"')
    expect(csvField(' padded')).toBe('" padded"')
  })
})

describe('batchExampleCsv', () => {
  it('is the header of the variables’ names and a row of their examples, CRLF-ended', () => {
    const csv = batchExampleCsv([
      variable('topic', 'Why the sky is blue'),
      variable('product_name', 'Lumen, the desk lamp', 'Product name'),
    ])
    expect(csv).toBe('topic,product_name\r\nWhy the sky is blue,"Lumen, the desk lamp"\r\n')
  })
  it('puts the label in angle brackets where a variable has no example', () => {
    expect(batchExampleCsv([variable('character', '', 'Main character')])).toBe(
      'character\r\n<Main character>\r\n',
    )
  })
  it('is empty for a template without variables', () => {
    expect(batchExampleCsv([])).toBe('')
  })
})

describe('batchCsvHeader', () => {
  it('names every variable in order', () => {
    expect(batchCsvHeader([{ name: 'topic' }, { name: 'image' }])).toBe('topic,image')
  })
})

describe('csvDataUrl and batchExampleFileName', () => {
  it('percent-encodes the table into a text/csv data URL that decodes back', () => {
    const csv = 'topic\r\n"Tea, green"\r\n'
    const url = csvDataUrl(csv)
    expect(url.startsWith('data:text/csv;charset=utf-8,')).toBe(true)
    expect(decodeURIComponent(url.slice(url.indexOf(',') + 1))).toBe(csv)
  })
  it('names the example after the template, without signs a file name cannot hold', () => {
    expect(batchExampleFileName('Vertical short')).toBe('Vertical short example.csv')
    expect(batchExampleFileName('Ads/Promos: v2')).toBe('Ads_Promos_ v2 example.csv')
  })
})
