#!/usr/bin/env node
// The `agent-teams` command: runs the TypeScript CLI through tsx's loader, so that the command
// works straight after `npm install`, with no build step.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
