import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../helpers/processes'
import { tempWorkspace } from '../../helpers/workspace'

interface Host {
  platform: string
  arch: string
}
interface BinaryScript {
  claudeCodeBinaryPackages(
    args: readonly string[],
    host: Host,
  ): { packages: string[]; unsupported: string[] }
  explainMissingBinary(reason: { problem: string; remedy: string }, leftOut: boolean): string
  packagedBinary(resources: string, packageName: string): string
}
interface AfterPackScript {
  missingBinaryProblem(resources: string, target: Host): string | null
}

const script = (name: string): string => pathToFileURL(join(REPO_ROOT, 'scripts', name)).href
let binary: BinaryScript
let afterPack: AfterPackScript

beforeAll(async () => {
  binary = (await import(script('claude-code-binary.mjs'))) as BinaryScript
  afterPack = (await import(script('after-pack.mjs'))) as AfterPackScript
})

const SDK = '@anthropic-ai/claude-agent-sdk'
const linuxX64: Host = { platform: 'linux', arch: 'x64' }

describe("the Claude Code binary packages a packaging run needs (electron-builder's options)", () => {
  it.each([
    { args: [], host: linuxX64, packages: ['linux-x64'] },
    { args: ['--dir'], host: { platform: 'darwin', arch: 'arm64' }, packages: ['darwin-arm64'] },
    { args: ['--mac', '--arm64'], host: linuxX64, packages: ['darwin-arm64'] },
    { args: ['--win'], host: { platform: 'linux', arch: 'arm64' }, packages: ['win32-arm64'] },
    { args: ['--windows=nsis', '--x64'], host: linuxX64, packages: ['win32-x64'] },
    { args: ['--linux', 'deb', '--macos'], host: linuxX64, packages: ['linux-x64', 'darwin-x64'] },
    { args: ['-mwl'], host: linuxX64, packages: ['darwin-x64', 'win32-x64', 'linux-x64'] },
    {
      args: ['--linux', '--win', '--x64', '--arm64'],
      host: linuxX64,
      packages: ['linux-x64', 'linux-arm64', 'win32-x64', 'win32-arm64'],
    },
  ])('$args on $host.platform-$host.arch: $packages', ({ args, host, packages }) => {
    expect(binary.claudeCodeBinaryPackages(args, host)).toEqual({
      packages: packages.map((build) => `${SDK}-${build}`),
      unsupported: [],
    })
  })

  it('names the builds the SDK has no binary for: 32-bit, universal, another OS', () => {
    expect(binary.claudeCodeBinaryPackages(['--linux', '--ia32', '--x64'], linuxX64)).toEqual({
      packages: [`${SDK}-linux-x64`],
      unsupported: ['linux-ia32'],
    })
    expect(binary.claudeCodeBinaryPackages(['--mac', '--universal'], linuxX64).unsupported).toEqual(
      ['darwin-universal'],
    )
    expect(
      binary.claudeCodeBinaryPackages([], { platform: 'freebsd', arch: 'x64' }).unsupported,
    ).toEqual(['freebsd-x64'])
  })
})

describe('what packaging says when the binary cannot be had', () => {
  const offline = {
    problem: `node_modules lacks ${SDK}-darwin-arm64@0.3.336, and npm could not install it`,
    remedy: 'package on a machine that can reach the npm registry',
  }

  it('one paragraph: the cause, what the app is without it, and both ways on', () => {
    const paragraph = binary.explainMissingBinary(offline, false)
    expect(paragraph).not.toContain('\n')
    expect(paragraph).toContain(offline.problem)
    expect(paragraph).toMatch(/built-in engine only, and says why/)
    expect(paragraph).toContain('To include it, package on a machine that can reach the npm')
    expect(paragraph).toContain('run again with --without-claude-code')
  })

  it('with --without-claude-code, that packaging goes on without it', () => {
    const paragraph = binary.explainMissingBinary(offline, true)
    expect(paragraph).toContain('Packaging goes on without it, as --without-claude-code asks.')
    expect(paragraph).not.toContain('run again')
  })
})

describe("the afterPack check (scripts/after-pack.mjs), on an app's resources folder", () => {
  it('passes an app holding its binary outside the archive, and fails one without', () => {
    const { dir: resources } = tempWorkspace('agent-teams-resources-')
    const problem = afterPack.missingBinaryProblem(resources, { platform: 'win32', arch: 'x64' })
    const expected = join(
      resources,
      'app.asar.unpacked',
      'node_modules',
      '@anthropic-ai',
      'claude-agent-sdk-win32-x64',
      'claude.exe',
    )
    expect(problem).toContain(`the win32-x64 app has no ${expected}`)
    expect(problem).toContain('AGENT_TEAMS_WITHOUT_CLAUDE_CODE=1')
    expect(binary.packagedBinary(resources, `${SDK}-win32-x64`)).toBe(expected)
    mkdirSync(join(expected, '..'), { recursive: true })
    writeFileSync(expected, '')
    expect(afterPack.missingBinaryProblem(resources, { platform: 'win32', arch: 'x64' })).toBeNull()
  })

  it('fails a build the SDK has no binary for', () => {
    const { dir: resources } = tempWorkspace('agent-teams-resources-')
    expect(
      afterPack.missingBinaryProblem(resources, { platform: 'linux', arch: 'armv7l' }),
    ).toContain('the SDK publishes no binary for linux-armv7l')
  })
})

/**
 * A project folder with package.mjs and the installed SDK (its package.json only); its build
 * prints a line and fails, so a run shows whether it got past the binary to the build.
 */
function projectCopy(): string {
  const { dir } = tempWorkspace('agent-teams-package-')
  mkdirSync(join(dir, 'scripts'))
  for (const name of ['package.mjs', 'claude-code-binary.mjs'])
    copyFileSync(join(REPO_ROOT, 'scripts', name), join(dir, 'scripts', name))
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'package-copy',
      private: true,
      scripts: { build: `node -e "console.log('the build ran'); process.exit(3)"` },
    }),
  )
  const sdk = join(dir, 'node_modules', '@anthropic-ai', 'claude-agent-sdk')
  mkdirSync(sdk, { recursive: true })
  writeFileSync(join(sdk, 'package.json'), JSON.stringify({ name: SDK, version: '0.3.336' }))
  return dir
}

/** Runs the copy's package.mjs with npm pointed at a registry nobody answers on. */
function packageOffline(dir: string, args: readonly string[]): ReturnType<typeof spawnSync> {
  return spawnSync(process.execPath, [join(dir, 'scripts', 'package.mjs'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...process.env,
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_cache: join(dir, 'npm-cache'),
      npm_config_fetch_retries: '0',
      npm_config_update_notifier: 'false',
    },
  })
}

describe('npm run package, where the target’s binary is missing and npm cannot fetch it', () => {
  it('stops before the build with the paragraph', () => {
    const dir = projectCopy()
    const run = packageOffline(dir, ['--linux', '--arm64'])
    expect(run.stdout).toContain(
      `installing Claude Code's binary for this build: ${SDK}-linux-arm64@0.3.336`,
    )
    expect(run.stderr).toMatch(
      /package: Claude Code's binary cannot be packaged: node_modules lacks @anthropic-ai\/claude-agent-sdk-linux-arm64@0\.3\.336, and npm could not install it/,
    )
    expect(run.stderr).toContain('run again with --without-claude-code')
    expect(run.stdout).not.toContain('the build ran')
    expect(run.status).toBe(1)
  }, 130_000)

  it('with --without-claude-code, says so and goes on to the build', () => {
    const dir = projectCopy()
    const run = packageOffline(dir, ['--linux', '--arm64', '--without-claude-code'])
    expect(run.stderr).toContain('Packaging goes on without it, as --without-claude-code asks.')
    expect(run.stdout).toContain('the build ran')
    expect(run.stderr).toContain('`npm run build` failed; nothing was packaged.')
  }, 130_000)

  it('installs nothing when node_modules has the binary already', () => {
    const dir = projectCopy()
    const platformPackage = join(
      dir,
      'node_modules',
      '@anthropic-ai',
      'claude-agent-sdk-linux-arm64',
    )
    mkdirSync(platformPackage, { recursive: true })
    writeFileSync(
      join(platformPackage, 'package.json'),
      JSON.stringify({ name: `${SDK}-linux-arm64` }),
    )
    writeFileSync(join(platformPackage, 'claude'), '')
    const run = packageOffline(dir, ['--linux', '--arm64'])
    expect(run.stdout).not.toContain('installing')
    expect(run.stderr).not.toContain('cannot be packaged')
    expect(run.stdout).toContain('the build ran')
  }, 130_000)
})
