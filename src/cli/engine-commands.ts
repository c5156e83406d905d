import { ENGINE_LABELS, ENGINES, engineSchema, type EngineName } from '../shared/engine'
import { engineAvailability } from '../runtime/engines/availability'
import { assertEngineAvailable } from '../runtime/host/engine-check'
import type { CommandContext } from './commands'
import { UsageError, writeLine } from './output'

type Command = (context: CommandContext) => Promise<number>

/**
 * spawn's `--engine E`, undefined when not given. An engine that cannot run here is refused at
 * once, by the host's own rule: the running team would refuse it the same way, and the command
 * would only learn it when its wait ran out.
 */
export function engineOption(value: string | undefined): EngineName | undefined {
  if (value === undefined) return undefined
  const parsed = engineSchema.safeParse(value)
  if (!parsed.success)
    throw new UsageError(`--engine takes one of ${ENGINES.join(', ')}, not "${value}"`)
  assertEngineAvailable(parsed.data, engineAvailability())
  return parsed.data
}

/** `agent-teams engines [--json]`: each engine, whether it can run here, what it needs and costs. */
export const engines: Command = async (context) => {
  if (context.positionals.length > 0) throw new UsageError('takes no arguments')
  for (const engine of engineAvailability()) {
    if (context.options.json) {
      await writeLine(context.output.stdout, JSON.stringify(engine))
      continue
    }
    const lines = [
      `${engine.engine} (${ENGINE_LABELS[engine.engine]}): ${engine.available ? 'available' : 'not available'}`,
      ...(engine.problem === null ? [] : [`  problem: ${engine.problem}`]),
      `  needs: ${engine.needs}`,
      `  costs: ${engine.costs}`,
    ]
    await writeLine(context.output.stdout, lines.join('\n'))
  }
  return 0
}
