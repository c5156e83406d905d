import { describe, expect, it } from 'vitest'
import { resolveWorkspace } from '../../../src/main/workspace'

const argv = (...args: string[]): string[] => [
  '/usr/bin/electron',
  '/app/out/main/index.js',
  ...args,
]

describe('the --workspace argument', () => {
  it('takes the next argument, or the value after =, resolved against the folder it ran in', () => {
    expect(resolveWorkspace(argv('--workspace', 'team'), '/home/ada')).toBe('/home/ada/team')
    expect(resolveWorkspace(argv('--workspace=/srv/team'), '/home/ada')).toBe('/srv/team')
    expect(resolveWorkspace(argv('--flag', '--workspace', '../x'), '/home/ada')).toBe('/home/x')
  })

  it('is absent without the flag or without a value: the window then asks for a folder', () => {
    expect(resolveWorkspace(argv(), '/home/ada')).toBeUndefined()
    expect(resolveWorkspace(argv('--workspace'), '/home/ada')).toBeUndefined()
    expect(resolveWorkspace(argv('--workspace='), '/home/ada')).toBeUndefined()
    expect(resolveWorkspace(argv('--workspace', '--inspect'), '/home/ada')).toBeUndefined()
  })
})
