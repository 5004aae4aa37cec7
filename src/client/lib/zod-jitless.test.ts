import { describe, expect, it } from 'vitest'
import './zod-jitless'
import { config } from 'zod/v4/core'
import { z } from 'zod'

describe('zod without eval', () => {
  it('reads jitless from the setting made before the first load', () => {
    expect(config().jitless).toBe(true)
  })

  it('still parses and refuses as before', () => {
    const schema = z.object({ name: z.string().min(1), seats: z.number().int() })
    expect(schema.parse({ name: 'a', seats: 2 })).toEqual({ name: 'a', seats: 2 })
    expect(schema.safeParse({ name: '', seats: 2.5 }).success).toBe(false)
  })
})
