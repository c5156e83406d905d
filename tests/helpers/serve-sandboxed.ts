// A child program for the signal tests: `agent-teams serve` on a workspace (with a stand-in
// page, so that no build is needed), which runs one bash command in the OS sandbox once it
// listens, as an agent's first command would, then prints "ready".
//   node --import tsx tests/helpers/serve-sandboxed.ts <workspace> <static folder>
import { createServeCommand } from '../../src/cli/serve-command'
import { createBashTool } from '../../src/runtime/tools/bash-tool'

const [workspace = '', staticDirectory = ''] = process.argv.slice(2)
const serve = createServeCommand({
  staticDirectory,
  onListening: () => {
    const context = { workspace, agent: 'alice', signal: new AbortController().signal }
    void createBashTool({ sandbox: { allowedHosts: () => [] } })
      .run({ command: 'echo sandboxed' }, context)
      .then((result) => process.stdout.write(`ready ${JSON.stringify(result)}\n`))
  },
})
process.exitCode = await serve({
  output: process,
  positionals: [],
  options: {
    workspace,
    workspaceGiven: true,
    json: false,
    all: false,
    reset: false,
    yes: false,
    clear: false,
    planFirst: false,
    trustWorkspace: false,
  },
})
