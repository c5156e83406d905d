import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { EngineAvailability } from '../../../shared/engine'

/** The SDK, an optional dependency: it brings Claude Code's own binary (about 400 MB). */
export const CLAUDE_CODE_SDK = '@anthropic-ai/claude-agent-sdk'

const NEEDS =
  "Claude Code's binary (the optional dependency @anthropic-ai/claude-agent-sdk), the team's endpoint and key; it runs in the OS sandbox, in its worktree."
const COSTS =
  "The same model prices, priced with this app's table; Claude Code's system prompt and tools make each request larger than the built-in engine's (about 15,000 tokens, mostly cached)."

const INSTALL = `Install it with \`npm install ${CLAUDE_CODE_SDK}\` in the app's folder (it is an optional dependency, left out by \`npm install --omit=optional\`), or spawn the teammate with the built-in engine.`

/** Whether this Linux runs musl rather than glibc: asked once (a process report is slow). */
let musl: boolean | undefined

/** The platform packages the SDK looks its binary up in, in its own order. */
function binaryPackages(): string[] {
  const { platform, arch } = process
  const base = `${CLAUDE_CODE_SDK}-${platform}-${arch}`
  if (platform !== 'linux') return [base]
  musl ??= !(process.report?.getReport() as { header?: { glibcVersionRuntime?: string } })?.header
    ?.glibcVersionRuntime
  return musl ? [`${base}-musl`, base] : [base, `${base}-musl`]
}

/**
 * The file to execute for a path `require.resolve` gave. In a packaged app that path is inside
 * app.asar, which Electron reads as a folder but no OS can execute from; electron-builder puts
 * the real file under app.asar.unpacked (electron-builder.yml's asarUnpack).
 */
export function unpackedPath(
  resolved: string,
  exists: (path: string) => boolean = existsSync,
): string {
  const unpacked = resolved.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2')
  return unpacked !== resolved && exists(unpacked) ? unpacked : resolved
}

/** Where the SDK and its binary (a file the OS can execute) are, or why Claude Code cannot run. */
export function locateClaudeCode(
  from: string = import.meta.url,
): { sdk: string; binary: string } | { problem: string } {
  const require = createRequire(from)
  let sdk: string
  try {
    sdk = require.resolve(CLAUDE_CODE_SDK)
  } catch {
    return {
      problem: `The Claude Code engine needs ${CLAUDE_CODE_SDK}, which is not installed. ${INSTALL}`,
    }
  }
  const fromSdk = createRequire(sdk)
  for (const name of binaryPackages()) {
    const file = `${name}/claude${process.platform === 'win32' ? '.exe' : ''}`
    try {
      const binary = unpackedPath(fromSdk.resolve(file))
      if (existsSync(binary)) return { sdk, binary }
    } catch {
      // Not this one: the next candidate.
    }
  }
  return {
    problem: `The Claude Code engine needs Claude Code's binary for ${process.platform}-${process.arch} (${binaryPackages()[0]}), which is not installed. ${INSTALL}`,
  }
}

/** The engine's availability here, for the spawn dialog, `agent-teams engines` and a spawn. */
export function claudeCodeAvailability(): EngineAvailability {
  const found = locateClaudeCode()
  return {
    engine: 'claude-code',
    available: !('problem' in found),
    problem: 'problem' in found ? found.problem : null,
    needs: NEEDS,
    costs: COSTS,
  }
}
