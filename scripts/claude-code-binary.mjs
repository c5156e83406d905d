// Claude Code's binary in a packaged app: which of the SDK's platform packages each build needs,
// whether node_modules has it, installing it for another platform, and what to say when it
// cannot be had. scripts/package.mjs uses it before electron-builder runs, and
// scripts/after-pack.mjs after each build. docs/decisions/claude-code-binary.md says why the
// binary is packaged rather than downloaded on first use.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

export const CLAUDE_CODE_SDK = '@anthropic-ai/claude-agent-sdk'

/** electron-builder's platform options, as Node and the SDK's package names call platforms. */
const PLATFORM_OPTIONS = {
  '--linux': 'linux',
  '--mac': 'darwin',
  '--macos': 'darwin',
  '--win': 'win32',
  '--windows': 'win32',
}
const PLATFORM_LETTERS = { l: 'linux', m: 'darwin', w: 'win32' }
const ARCHITECTURES = ['x64', 'ia32', 'armv7l', 'arm64', 'universal']

/** What the SDK publishes a binary for: no 32-bit build, no universal macOS one. */
const BINARY_PLATFORMS = ['linux', 'darwin', 'win32']
const BINARY_ARCHITECTURES = ['x64', 'arm64']

/**
 * The builds electron-builder makes for `args`: each platform named (`--linux`, `-m`,
 * `--win=nsis`…; default: this machine's) for each architecture named (`--x64`, `--arm64`…;
 * default: this machine's). electron-builder.yml names no architecture of its own.
 */
export function packagingTargets(args, host) {
  const platforms = new Set()
  const architectures = new Set()
  for (const arg of args) {
    const option = arg.split('=')[0] ?? arg
    if (Object.hasOwn(PLATFORM_OPTIONS, option)) platforms.add(PLATFORM_OPTIONS[option])
    else if (/^-[lmw]+$/.test(option))
      for (const letter of option.slice(1)) platforms.add(PLATFORM_LETTERS[letter])
    else if (option.startsWith('--') && ARCHITECTURES.includes(option.slice(2)))
      architectures.add(option.slice(2))
  }
  if (platforms.size === 0) platforms.add(host.platform)
  if (architectures.size === 0) architectures.add(host.arch)
  return [...platforms].flatMap((platform) =>
    [...architectures].map((arch) => ({ platform, arch })),
  )
}

/** The SDK's package holding Claude Code's binary for one build, or null where it has none. */
export function binaryPackage({ platform, arch }) {
  if (!BINARY_PLATFORMS.includes(platform) || !BINARY_ARCHITECTURES.includes(arch)) return null
  // The glibc build on Linux: Electron itself needs glibc, so a musl one would never run.
  return `${CLAUDE_CODE_SDK}-${platform}-${arch}`
}

/** The binary's file in its package. */
export function binaryFile(packageName) {
  return packageName.includes('-win32-') ? 'claude.exe' : 'claude'
}

/**
 * The binary packages the builds of `args` need, and the builds (`linux-ia32`) the SDK has no
 * binary for.
 */
export function claudeCodeBinaryPackages(
  args,
  host = { platform: process.platform, arch: process.arch },
) {
  const packages = []
  const unsupported = []
  for (const target of packagingTargets(args, host)) {
    const name = binaryPackage(target)
    if (name === null) unsupported.push(`${target.platform}-${target.arch}`)
    else if (!packages.includes(name)) packages.push(name)
  }
  return { packages, unsupported }
}

/** The installed SDK's version (its binary packages must be the same), or null without it. */
export function installedSdkVersion(root) {
  try {
    const file = join(root, 'node_modules', ...CLAUDE_CODE_SDK.split('/'), 'package.json')
    return JSON.parse(readFileSync(file, 'utf8')).version ?? null
  } catch {
    return null
  }
}

/** Whether the SDK finds `packageName`'s binary, resolved as availability.ts resolves it. */
export function hasBinary(root, packageName) {
  const sdk = join(root, 'node_modules', ...CLAUDE_CODE_SDK.split('/'), 'package.json')
  try {
    return existsSync(createRequire(sdk).resolve(`${packageName}/${binaryFile(packageName)}`))
  } catch {
    return false
  }
}

/**
 * Installs binary packages at the SDK's version beside the project's packages, showing npm's
 * progress. `--force` lets npm install another platform's package; `--no-save` leaves
 * package.json and the lockfile as they are. True when npm succeeded.
 */
export function installBinaries(root, packageNames, version) {
  const installed = spawnSync(
    'npm',
    [
      'install',
      '--no-save',
      '--force',
      '--no-audit',
      '--no-fund',
      ...packageNames.map((name) => `${name}@${version}`),
    ],
    { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' },
  )
  return installed.status === 0
}

/**
 * One paragraph: the packaged app would lack Claude Code's binary, because of `problem`, and
 * what to do (`remedy`, both clauses). `leftOut`: the person asked to package without it
 * (--without-claude-code), and packaging goes on.
 */
export function explainMissingBinary({ problem, remedy }, leftOut) {
  const consequence =
    'An app packaged without it runs teammates on the built-in engine only, and says why when ' +
    'a Claude Code teammate is asked for.'
  const next = leftOut
    ? 'Packaging goes on without it, as --without-claude-code asks.'
    : `To include it, ${remedy}; to package without the Claude Code engine, run again with ` +
      '--without-claude-code.'
  return `Claude Code's binary cannot be packaged: ${problem}. ${consequence} ${next}`
}

/** Where electron-builder puts a package's binary in an app's resources folder. */
export function packagedBinary(resources, packageName) {
  return join(
    resources,
    'app.asar.unpacked',
    'node_modules',
    ...packageName.split('/'),
    binaryFile(packageName),
  )
}
