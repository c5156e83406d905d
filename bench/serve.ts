// `agent-teams serve`, exactly as src/cli/serve-command.ts runs it, but serving the renderer
// the benchmark built from the current sources (with source maps, so profiles can name
// functions) instead of out/renderer, which other work on this machine may be rebuilding.
// Run with tsx, as bin/agent-teams.mjs runs the CLI:  node --import tsx bench/serve.ts WS STATIC
import { createServeCommand } from '../src/cli/serve-command'

const [workspace, staticDirectory] = process.argv.slice(2) as [string, string]
process.exitCode = await createServeCommand({ staticDirectory })({
  output: process,
  positionals: [],
  // The bench's own team, written as an earlier run leaves it: trusted for the run.
  options: {
    workspace,
    workspaceGiven: true,
    json: false,
    all: false,
    reset: false,
    yes: false,
    clear: false,
    planFirst: false,
    trustWorkspace: true,
  },
})
