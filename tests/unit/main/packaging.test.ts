import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, statSync, type Stats } from 'node:fs'
import { builtinModules } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config'
import * as fileMatchers from 'app-builder-lib/out/fileMatcher'
import type { FileMatcher } from 'app-builder-lib/out/fileMatcher'
import { expandMacro } from 'app-builder-lib/out/util/macroExpander'
import type {
  AppInfo,
  Configuration,
  Packager,
  PlatformSpecificBuildOptions,
} from 'app-builder-lib'
import { DebugLogger } from 'builder-util'
import { beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../helpers/processes'

interface PackageScript {
  explainPackagingFailure(output: string, electronVersion: string): string | null
}

let config: Configuration

/** electron-builder's filter of node_modules files (internal: not in its type declarations). */
const { getFileMatchers, getNodeModuleFileMatcher } = fileMatchers as typeof fileMatchers & {
  getNodeModuleFileMatcher(
    appDir: string,
    destination: string,
    macroExpander: (pattern: string) => string,
    platformSpecificBuildOptions: PlatformSpecificBuildOptions,
    packager: Packager,
  ): FileMatcher
}

beforeAll(async () => {
  // electron-builder's own loader: electron-builder.yml, as `npm run package` reads it.
  config = await getConfig(REPO_ROOT, null, null)
})

/** A section of the configuration as a plain record (the library types them loosely). */
function section(name: keyof Configuration): Record<string, unknown> {
  const value = config[name]
  expect(value, `electron-builder.yml has a "${name}" section`).toBeTypeOf('object')
  return value as Record<string, unknown>
}

describe('the electron-builder configuration', () => {
  it("passes electron-builder's own validation against its JSON schema", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined()
  })

  it('is really checked: an unknown option is refused by the same validation', async () => {
    const broken = {
      ...config,
      linux: { ...section('linux'), categoryy: 'Development' },
    } as Configuration
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(
      /Invalid configuration object[\s\S]*configuration\.linux/,
    )
  })

  it('names the product, the app id, asar and a target for each platform', () => {
    expect(config.productName).toBe('Agent Teams')
    expect(config.appId).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/)
    expect(config.asar).toBe(true)
    expect(section('linux').target).toEqual(['AppImage', 'deb'])
    expect(section('mac').target).toEqual(['dmg'])
    expect(section('win').target).toEqual(['nsis'])
    expect(section('linux').category).toBe('Development')
    expect(section('linux').maintainer).toMatch(/<.+@.+>/)
  })

  it('sets the Electron fuses: RunAsNode only for the CLI, nothing else opened up', () => {
    expect(config.electronFuses).toEqual({
      // The CLI inside the app runs as ELECTRON_RUN_AS_NODE=1 <app> cli.mjs (see the yml).
      runAsNode: true,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    })
  })

  it('packages the built output only, with the CLI bundle outside the asar', () => {
    // The loader wraps the list in one pattern set.
    expect(config.files).toEqual([
      { filter: ['out/**', '!out/**/*.map', 'package.json', 'resources/icon.png'] },
    ])
    expect(config.asarUnpack).toEqual([
      'out/cli/**',
      'node_modules/@anthropic-ai/sandbox-runtime/**',
      'node_modules/@anthropic-ai/claude-agent-sdk/**',
      'node_modules/@anthropic-ai/claude-agent-sdk-*/**',
    ])
    expect(config.extraResources).toEqual([{ from: 'resources/bin', to: 'bin' }])
  })

  // Each platform's build, as electron-builder's own matchers read the configuration for it.
  const builds = [
    { section: 'linux', platform: 'linux', arch: 'x64' },
    { section: 'linux', platform: 'linux', arch: 'arm64' },
    { section: 'mac', platform: 'darwin', arch: 'x64' },
    { section: 'mac', platform: 'darwin', arch: 'arm64' },
    { section: 'win', platform: 'win32', arch: 'x64' },
    { section: 'win', platform: 'win32', arch: 'arm64' },
  ] as const
  const installed = [
    'linux-x64',
    'linux-arm64',
    'linux-x64-musl',
    'linux-arm64-musl',
    'darwin-x64',
    'darwin-arm64',
    'win32-x64',
    'win32-arm64',
  ]
  /** A file of a node module as electron-builder's filters see it (relative to the app). */
  const moduleFile = (path: string): Stats =>
    ({ isDirectory: () => false, moduleFullFilePath: path }) as unknown as Stats

  it.each(builds)(
    "packs Claude Code's binary for $platform-$arch only, and the SDK",
    ({ section: name, platform, arch }) => {
      const expand = (pattern: string): string =>
        expandMacro(pattern, arch, {} as AppInfo, { '/*': '{,/**/*}' })
      const packager = { config, debugLogger: new DebugLogger(false) }
      const keeps = getNodeModuleFileMatcher(
        REPO_ROOT,
        '/app',
        expand,
        section(name) as PlatformSpecificBuildOptions,
        packager as unknown as Packager,
      ).createFilter()
      const kept = installed.filter((build) =>
        keeps('', moduleFile(`node_modules/@anthropic-ai/claude-agent-sdk-${build}/claude`)),
      )
      expect(kept).toEqual([`${platform}-${arch}`])
      expect(keeps('', moduleFile('node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs'))).toBe(
        true,
      )
      // Outside the archive: the binary, to be executed, and the SDK, for the CLI's import.
      const [unpack] =
        getFileMatchers(config, 'asarUnpack', '/app', {
          macroExpander: expand,
          customBuildOptions: section(name) as PlatformSpecificBuildOptions,
          globalOutDir: join(REPO_ROOT, 'dist'),
          defaultSrc: REPO_ROOT,
        }) ?? []
      const unpacks = unpack?.createFilter()
      const binary = `node_modules/@anthropic-ai/claude-agent-sdk-${platform}-${arch}/claude${platform === 'win32' ? '.exe' : ''}`
      expect(unpacks?.('', moduleFile(binary))).toBe(true)
      expect(unpacks?.('', moduleFile('node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs'))).toBe(
        true,
      )
      expect(unpacks?.('', moduleFile('node_modules/zod/index.js'))).toBe(false)
    },
  )

  it('checks after each build that the app holds its Claude Code binary', () => {
    expect(config.afterPack).toBe('./scripts/after-pack.mjs')
    expect(existsSync(join(REPO_ROOT, config.afterPack as string))).toBe(true)
  })

  it('names only files that exist: the icon, the launchers, the deb scripts, the profile', () => {
    const deb = section('deb')
    const named = [
      config.icon,
      deb.afterInstall,
      deb.afterRemove,
      deb.appArmorProfile,
      'resources/bin/agent-teams',
      'resources/bin/agent-teams.cmd',
      'resources/bin/cli.mjs',
    ]
    for (const file of named) {
      expect(typeof file, String(file)).toBe('string')
      expect(existsSync(join(REPO_ROOT, file as string)), `${String(file)} exists`).toBe(true)
    }
    // electron-builder derives the macOS and Windows icons from a PNG of at least 512 px.
    const png = readFileSync(join(REPO_ROOT, config.icon as string))
    expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512)
    expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(512)
  })
})

const builtMain = join(REPO_ROOT, 'out', 'main', 'index.js')
if (!existsSync(builtMain)) console.warn(`skipped: no ${builtMain}; run npm run build first`)

describe('the packaged dependencies', () => {
  it.skipIf(!existsSync(builtMain))(
    'every package the built main process imports is a production dependency',
    () => {
      // electron-builder ships package.json's "dependencies" (not devDependencies) beside out/.
      const { dependencies } = JSON.parse(
        readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'),
      ) as { dependencies: Record<string, string> }
      const imported = [...readFileSync(builtMain, 'utf8').matchAll(/from "([^".][^"]*)"/g)]
        .map((match) => match[1] ?? '')
        .filter((name) => !name.startsWith('node:') && !builtinModules.includes(name))
        .map((name) =>
          name
            .split('/')
            .slice(0, name.startsWith('@') ? 2 : 1)
            .join('/'),
        )
        .filter((name) => name !== 'electron')
      expect(imported.length).toBeGreaterThan(0)
      for (const name of imported) expect(Object.keys(dependencies)).toContain(name)
    },
  )

  it.skipIf(!existsSync(builtMain))(
    'every project file the built main process refers to (the window icon) is packaged',
    () => {
      // electron-vite leaves `?asset` imports from resources/ in place, relative to out/main.
      const referred = [...readFileSync(builtMain, 'utf8').matchAll(/"\.\.\/\.\.\/([^"]+)"/g)]
        .map((match) => match[1] ?? '')
        .filter((file) => !file.startsWith('out/'))
      expect(referred).toContain('resources/icon.png')
      const [patterns] = config.files as [{ filter: string[] }]
      for (const file of referred) expect(patterns.filter).toContain(file)
    },
  )
})

describe('the Windows launcher (resources/bin/agent-teams.cmd)', () => {
  it("runs the app's executable as Node on cli.mjs beside it, with the arguments", () => {
    const launcher = readFileSync(join(REPO_ROOT, 'resources', 'bin', 'agent-teams.cmd'), 'utf8')
    // nsis installs <folder>/<productName>.exe, with resources/bin two levels below it.
    expect(launcher).toContain('set "ELECTRON_RUN_AS_NODE=1"')
    expect(launcher).toContain(`"%~dp0..\\..\\${String(config.productName)}.exe" "%~dp0cli.mjs" %*`)
    expect(launcher).toMatch(/exit \/b %EXIT_CODE%/)
  })
})

describe("the deb's scripts", () => {
  const read = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8')

  it.each(['resources/linux/after-install.sh', 'resources/linux/after-remove.sh'])(
    '%s parses under sh -n and uses no ${…} (electron-builder reads it as a template)',
    (file) => {
      const check = spawnSync('sh', ['-n', join(REPO_ROOT, file)], { encoding: 'utf8' })
      expect(check.stderr).toBe('')
      expect(check.status).toBe(0)
      expect(read(file)).not.toMatch(/\$\{[a-zA-Z]+\}/)
      expect(statSync(join(REPO_ROOT, file)).mode & 0o111).not.toBe(0)
    },
  )

  it('after-install links the CLI, makes chrome-sandbox setuid root and loads the profile', () => {
    const script = read('resources/linux/after-install.sh')
    expect(script).toContain(`ln -sf "$APP_DIR/resources/bin/agent-teams" /usr/bin/agent-teams`)
    expect(script).toContain(`chown root:root "$APP_DIR/chrome-sandbox"`)
    expect(script).toContain(`chmod 4755 "$APP_DIR/chrome-sandbox"`)
    expect(script).toContain(`APPARMOR_TARGET='/etc/apparmor.d/agent-teams'`)
    expect(script).toMatch(/apparmor_parser --replace [^\n]*"\$APPARMOR_TARGET"/)
    expect(script).toContain(`APP_DIR='/opt/${config.productName}'`)
  })

  it('the AppArmor profile lets the app executable create user namespaces, unconfined', () => {
    const profile = read('resources/linux/apparmor-profile')
    const executable = `/opt/${config.productName}/${String(section('linux').executableName)}`
    expect(profile).toContain(`profile agent-teams "${executable}" flags=(unconfined) {`)
    expect(profile).toMatch(/^\s*userns,$/m)
  })
})

describe('npm run package', () => {
  it('builds then packages, for this platform or the one named', () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(scripts.package).toBe('node scripts/package.mjs')
    expect(scripts['package:linux']).toBe('node scripts/package.mjs --linux')
    expect(scripts['package:mac']).toBe('node scripts/package.mjs --mac')
    expect(scripts['package:win']).toBe('node scripts/package.mjs --win')
    const script = readFileSync(join(REPO_ROOT, 'scripts', 'package.mjs'), 'utf8')
    expect(script).toContain("spawnSync('npm', ['run', 'build']")
  })

  it('explains a download that failed in one paragraph, and nothing else', async () => {
    const script = pathToFileURL(join(REPO_ROOT, 'scripts', 'package.mjs')).href
    const { explainPackagingFailure } = (await import(script)) as PackageScript
    // electron-builder's own output on this machine (no route to github.com).
    const offline =
      '  ⨯ getaddrinfo ENOTFOUND github.com  failedTask=build stackTrace=RequestError: ' +
      'getaddrinfo ENOTFOUND github.com'
    const paragraph = explainPackagingFailure(offline, '45.5.0')
    expect(paragraph).toMatch(/Electron 45\.5\.0's prebuilt zip/)
    expect(paragraph).toMatch(/npm start/)
    expect(paragraph).not.toContain('\n')
    expect(explainPackagingFailure('  ⨯ Cannot find module "x"', '45.5.0')).toBeNull()
  })
})
