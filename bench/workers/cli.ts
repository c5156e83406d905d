// The `agent-teams` command as one bundled file, so that a benchmark measures the command and
// not tsx compiling it: `node cli.mjs export --agent alice --format md`.
import { main } from '../../src/cli/main'

process.exitCode = await main(process.argv.slice(2))
