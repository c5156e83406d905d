// The entry the `agent-teams` launchers run with the app's executable as Node. The bundle sits
// outside the asar (electron-builder.yml's asarUnpack) so Node's module loader reads it as is.
import { main } from '../app.asar.unpacked/out/cli/main.mjs'

// Set only to run this file as Node: programs the agents start (another Electron app) must not
// inherit it.
delete process.env.ELECTRON_RUN_AS_NODE
process.exitCode = await main(process.argv.slice(2))
