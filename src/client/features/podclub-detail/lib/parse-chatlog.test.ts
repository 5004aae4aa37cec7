import { describe, expect, it } from 'vitest'
import { parseChatlog } from './parse-chatlog'

describe('parseChatlog', () => {
  it('reads entries, strips " to Everyone" and keeps senders without it as they are', () => {
    const log = [
      '19:02:11 From maya.r to Everyone: hello from the back row',
      '19:31:02 From jon b: that point about boredom 👏',
    ].join('\n')
    expect(parseChatlog(log)).toEqual([
      { time: '19:02:11', sender: 'maya.r', message: 'hello from the back row' },
      { time: '19:31:02', sender: 'jon b', message: 'that point about boredom 👏' },
    ])
  })

  it('joins lines that do not start an entry to the entry before them', () => {
    const log =
      '19:05:40 From priya to Everyone: transcript:\r\nhttps://example.com/t\n  page 2\n19:06:00 From ren: ok'
    expect(parseChatlog(log)).toEqual([
      { time: '19:05:40', sender: 'priya', message: 'transcript:\nhttps://example.com/t\npage 2' },
      { time: '19:06:00', sender: 'ren', message: 'ok' },
    ])
  })

  it('drops blank lines and keeps malformed lines as text', () => {
    const log = [
      '',
      'Chat of the meeting',
      '19:00 From x: no seconds',
      '   ',
      '19:01:00 From ana: a: b: c',
      '19:02:00 From  bea.n to Everyone :',
      '7:03:00\tFrom\tsam: tabbed',
    ].join('\n')
    expect(parseChatlog(log)).toEqual([
      { time: '', sender: '', message: 'Chat of the meeting\n19:00 From x: no seconds' },
      { time: '19:01:00', sender: 'ana', message: 'a: b: c' },
      { time: '19:02:00', sender: 'bea.n', message: '' },
      { time: '7:03:00', sender: 'sam', message: 'tabbed' },
    ])
  })

  it('gives no entries for an empty log', () => {
    expect(parseChatlog('')).toEqual([])
    expect(parseChatlog('\n\n  \n')).toEqual([])
  })
})
