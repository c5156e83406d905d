// electron-builder's afterPack hook (electron-builder.yml): each packaged app must hold Claude
// Code's binary for its own platform and architecture, outside the archive. electron-builder
// packs an optional dependency only when npm listed it as installed, so a tree npm did not
// install itself (a linked node_modules, another package manager) could leave it out without
// a word; the app would then refuse every Claude Code teammate. scripts/package.mjs sets
// AGENT_TEAMS_WITHOUT_CLAUDE_CODE=1 when the person chose to package without it.
import { existsSync } from 'node:fs'
import builderUtil from 'builder-util'
import { binaryPackage, explainMissingBinary, packagedBinary } from './claude-code-binary.mjs'

/**
 * Why the app in `resources` (its resources folder) lacks the binary for `target`
 * ({platform, arch}), in one paragraph, or null when it has it.
 */
export function missingBinaryProblem(resources, target) {
  const name = binaryPackage(target)
  const build = `${target.platform}-${target.arch}`
  if (name === null)
    return explainMissingBinary(
      {
        problem: `the SDK publishes no binary for ${build}`,
        remedy: 'package x64 or arm64 builds (--x64, --arm64)',
      },
      false,
    )
  const binary = packagedBinary(resources, name)
  if (existsSync(binary)) return null
  const paragraph = explainMissingBinary(
    {
      problem: `the ${build} app has no ${binary} (electron-builder packs ${name} only when \`npm list\` shows it installed)`,
      remedy: `package with \`npm run package\`, which installs ${name} at the SDK's version in a node_modules npm made`,
    },
    false,
  )
  return `${paragraph} (electron-builder run by itself: set AGENT_TEAMS_WITHOUT_CLAUDE_CODE=1.)`
}

export async function afterPack(context) {
  if (process.env.AGENT_TEAMS_WITHOUT_CLAUDE_CODE === '1') return
  const platform = context.electronPlatformName === 'mas' ? 'darwin' : context.electronPlatformName
  const target = { platform, arch: builderUtil.Arch[context.arch] }
  const problem = missingBinaryProblem(context.packager.getResourcesDir(context.appOutDir), target)
  if (problem !== null) throw new Error(problem)
}
