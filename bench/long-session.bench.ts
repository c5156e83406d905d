// Long sessions (issue 12): a persistent teammate against the offline model server, through the
// real SDK, in this process (the figures are tokens, not time, so no process of its own).
//   1. Prompt caching: 100 rounds, each a read_file of a few KB, once with the cache marks and
//      once without (the endpoint's internal `promptCaching: false`), same script, same server
//      settings, same run: billed input tokens with caching against without.
//   2. Compaction: the same session in a 20,000-token window: prompt tokens per model call in
//      the 10 calls before the first compaction against the 10 calls after it.
// Every figure is read from the usage the SDK client received, as the transcript records it.
// The runtime's own CPU per turn against a 2-second model turn is the runtime bench's row.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TranscriptRecord, Usage } from '../src/shared/transcript'
import { SUMMARY_SYSTEM_PROMPT } from '../src/runtime/agents/compaction-text'
import { TeamHost } from '../src/runtime/host/host'
import { OfflineModelServer } from '../src/offline-model/offline-server'
import { text, toolCall, type ModelRequest, type Script } from '../src/offline-model/script'
import {
  log,
  mean,
  removeDirectory,
  round,
  row,
  sleep,
  tempDirectory,
  type BenchResult,
} from './lib/common'

const ROUNDS = 100
/** Rounds per activation: the teammate is woken by mail for each batch, as a persistent one is. */
const BATCH = 10
const LARGE_WINDOW = 200_000
const SMALL_WINDOW = 20_000
/** Model calls on each side of the first compaction that are compared. */
const SIDE = 10
const AGENT = 'alice'
const SESSION_LIMIT_MS = 120_000
/** The API's price multipliers of input tokens: a 5-minute cache write, and a cache read. */
const CACHE_WRITE_PRICE = 1.25
const CACHE_READ_PRICE = 0.1

interface Session {
  readonly records: TranscriptRecord[]
  readonly summaryCalls: number
  readonly unexpected: string[]
}

type Assistant = Extract<TranscriptRecord, { kind: 'assistant' }>
type Compaction = Extract<TranscriptRecord, { kind: 'compaction' }>

/**
 * A module of about 3 KB that looks like the project's own code, different for each index, so
 * that each round's tool result is a realistic, distinct read.
 */
function moduleSource(index: number): string {
  const name = `Store${index}`
  const lines = [
    `// src/store-${index}.ts: records of kind ${index}, read and written atomically.`,
    "import { readFileSync, renameSync, writeFileSync } from 'node:fs'",
    "import { z } from 'zod'",
    '',
    `export const record${index}Schema = z.object({ id: z.string(), seq: z.number().int(), text: z.string() })`,
    `export type Record${index} = z.infer<typeof record${index}Schema>`,
    '',
    `export class ${name} {`,
    `  private readonly byId = new Map<string, Record${index}>()`,
    '',
    '  constructor(private readonly path: string) {}',
  ]
  for (let method = 0; lines.join('\n').length < 2900; method++)
    lines.push(
      '',
      `  /** Step ${method} of kind ${index}: parses one line, keeps it, and says whether it was new. */`,
      `  accept${method}(line: string): boolean {`,
      `    const parsed = record${index}Schema.safeParse(JSON.parse(line))`,
      `    if (!parsed.success) throw new Error(\`line ${method}: \${parsed.error.message}\`)`,
      `    if (this.byId.has(parsed.data.id)) return false`,
      `    this.byId.set(parsed.data.id, { ...parsed.data, seq: parsed.data.seq + ${method} })`,
      `    writeFileSync(\`\${this.path}.tmp\`, JSON.stringify([...this.byId.values()]))`,
      `    renameSync(\`\${this.path}.tmp\`, this.path)`,
      '    return true',
      '  }',
    )
  lines.push(
    '',
    `  load(): number {`,
    `    return readFileSync(this.path, 'utf8').length`,
    '  }',
    '}',
  )
  return `${lines.join('\n')}\n`
}

function writeModules(workspace: string): void {
  mkdirSync(join(workspace, 'src'), { recursive: true })
  for (let index = 0; index < ROUNDS; index++)
    writeFileSync(join(workspace, 'src', `store-${index}.ts`), moduleSource(index))
}

type Block = { type?: string }
type Message = { role?: string; content?: string | Block[] }

function isSummaryRequest(request: ModelRequest): boolean {
  return JSON.stringify(request.system ?? '').includes(SUMMARY_SYSTEM_PROMPT.slice(0, 60))
}

/**
 * The teammate's model: each activation reads the next BATCH modules, one read_file a call, then
 * answers with a short review; the summarizer answers with a summary of a realistic length.
 */
function reviewerScript(): Script & { unexpected: string[]; summaryCalls: () => number } {
  const unexpected: string[] = []
  let reads = 0
  let inBatch = 0
  let summaries = 0
  const script: Script = (request, context) => {
    if (context.agent !== AGENT) {
      unexpected.push(`a call for ${context.agent ?? 'nobody'}`)
      return text('ok')
    }
    if (isSummaryRequest(request)) {
      summaries++
      return text(
        `You are reviewing src/store-*.ts in batches of ${BATCH}, as the lead asked. ` +
          `Reviewed so far: ${reads} modules; each is a store class with accept steps that parse ` +
          'a line with zod, de-duplicate by id and rewrite the file through a temporary file and ' +
          'a rename. Findings: no fsync before the rename, so a crash can lose the last write; ' +
          'JSON.parse throws on a torn line instead of reporting it. Nothing sent to anyone yet; ' +
          'the lead awaits a short review after each batch.',
      )
    }
    const messages = request.messages as Message[]
    const last = messages.at(-1)
    const midBatch =
      Array.isArray(last?.content) && last.content.some((block) => block.type === 'tool_result')
    if (!midBatch) inBatch = 0
    if (inBatch < BATCH && reads < ROUNDS) {
      inBatch++
      return toolCall('read_file', { path: `src/store-${reads++}.ts` })
    }
    return text(
      `Reviewed ${inBatch} more modules (${reads} in all): no fsync before rename; torn lines throw.`,
    )
  }
  return Object.assign(script, { unexpected, summaryCalls: () => summaries })
}

async function runSession(label: string, caching: boolean, window: number): Promise<Session> {
  const script = reviewerScript()
  const server = await OfflineModelServer.start({
    script: (request, context) => {
      // The server keeps every request for tests; here that would only grow the heap.
      server.requests.length = 0
      return script(request, context)
    },
    apiKey: 'bench-key',
    contextWindow: window,
  })
  const workspace = tempDirectory('long-session')
  writeModules(workspace)
  const host = await TeamHost.open({
    workspace,
    watch: false,
    // The bench's own team: trusted for the run, nothing remembered.
    trust: { store: null, forRun: true },
    endpoint: {
      apiKey: 'bench-key',
      baseURL: server.url,
      model: 'offline-bench',
      maxRetries: 0,
      contextWindow: window,
      promptCaching: caching,
    },
  })
  try {
    log(`long-session: ${label}`)
    const deadline = Date.now() + SESSION_LIMIT_MS
    const activations = ROUNDS / BATCH
    await host.spawn({
      name: AGENT,
      role: 'reviewer',
      prompt: `Review the modules src/store-0.ts to src/store-${ROUNDS - 1}.ts, ${BATCH} at a time, reading each with read_file; after each batch answer with a short review.`,
    })
    for (let activation = 1; ; activation++) {
      // Each activation ends in a text answer; wait for it before the next wake-up.
      while (answers(host.transcript(AGENT).records) < activation) {
        const records = host.transcript(AGENT).records
        const stopped = records.find((record) => record.kind === 'status')
        if (stopped?.kind === 'status')
          throw new Error(`${label}: ${AGENT} stopped: ${stopped.status}: ${stopped.reason}`)
        if (Date.now() > deadline)
          throw new Error(`${label}: activation ${activation} took too long`)
        await host.whenIdle()
        await sleep(5)
      }
      if (activation === activations) break
      host.send({
        from: 'lead',
        to: AGENT,
        content: `Next batch, please (${activation + 1} of ${activations}).`,
      })
    }
    await host.whenIdle()
    return {
      records: host.transcript(AGENT).records,
      summaryCalls: script.summaryCalls(),
      unexpected: script.unexpected,
    }
  } finally {
    await host.close()
    await server.close()
    removeDirectory(workspace)
  }
}

function answers(records: readonly TranscriptRecord[]): number {
  return records.filter(
    (record) =>
      record.kind === 'assistant' && record.content.every((block) => block.type === 'text'),
  ).length
}

const assistants = (session: Session) =>
  session.records.filter((record): record is Assistant => record.kind === 'assistant')
const compactions = (session: Session) =>
  session.records.filter((record): record is Compaction => record.kind === 'compaction')

/** Every token of the prompt, however it was billed. */
function promptTokens(usage: Usage): number {
  return (
    usage.input_tokens +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0)
  )
}

/** Input tokens at the API's prices, in units of an uncached input token. */
function billedInput(usage: Usage): number {
  return (
    usage.input_tokens +
    CACHE_WRITE_PRICE * (usage.cache_creation_input_tokens ?? 0) +
    CACHE_READ_PRICE * (usage.cache_read_input_tokens ?? 0)
  )
}

/** Every model call of the session: the work calls and the summarizing calls. */
function callUsages(session: Session): Usage[] {
  return session.records.flatMap((record) =>
    record.kind === 'assistant' || record.kind === 'compaction' ? [record.usage] : [],
  )
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0)

/** The session ran as scripted: every round's tool result is there, nothing else was called. */
function checkSession(label: string, session: Session): void {
  const results = session.records.filter((record) => record.kind === 'tool-result').length
  if (results !== ROUNDS || session.unexpected.length > 0)
    throw new Error(
      `${label}: ${results} of ${ROUNDS} tool results; unexpected calls: ${session.unexpected.join(', ') || 'none'}`,
    )
}

export async function run(): Promise<BenchResult> {
  const cached = await runSession(`${ROUNDS} rounds with prompt caching`, true, LARGE_WINDOW)
  const plain = await runSession(`${ROUNDS} rounds without prompt caching`, false, LARGE_WINDOW)
  const small = await runSession(
    `${ROUNDS} rounds in a ${SMALL_WINDOW.toLocaleString('en')}-token window`,
    true,
    SMALL_WINDOW,
  )
  checkSession('with caching', cached)
  checkSession('without caching', plain)
  // Caching alone is compared: a compaction in either run would change what is sent.
  if (compactions(cached).length + compactions(plain).length > 0)
    throw new Error(`a ${LARGE_WINDOW}-token session compacted; the caching runs must not`)
  checkSession('small window', small)

  const billedCached = sum(callUsages(cached).map(billedInput))
  const billedPlain = sum(callUsages(plain).map(billedInput))
  const promptCached = sum(callUsages(cached).map(promptTokens))
  const promptPlain = sum(callUsages(plain).map(promptTokens))
  const cachingRatio = billedCached / billedPlain

  const folds = compactions(small)
  const first = folds[0]
  const calls = assistants(small)
  const before = first ? calls.filter((record) => record.seq < first.seq).slice(-SIDE) : []
  const after = first ? calls.filter((record) => record.seq > first.seq).slice(0, SIDE) : []
  const beforeMean = mean(before.map((record) => promptTokens(record.usage)))
  const afterMean = mean(after.map((record) => promptTokens(record.usage)))
  const foldsInAfter = first
    ? folds.filter((fold) => fold.seq > first.seq && fold.seq < (after.at(-1)?.seq ?? 0)).length
    : 0
  const summaryUsage = folds.map((fold) => fold.usage)
  const summaryPrompt = summaryUsage.map(promptTokens)
  const summaryOutput = summaryUsage.map((usage) => usage.output_tokens)
  const windowText = `${SMALL_WINDOW.toLocaleString('en')}-token window`
  // The same script in the large window never compacts: what each call would carry without it.
  const perCall = (session: Session) =>
    assistants(session).map((record) => promptTokens(record.usage))
  const unbounded = perCall(cached)
  const bounded = perCall(small)
  const shrink = (pick: (fold: Compaction) => number) =>
    round(mean(folds.map(pick)), 0).toLocaleString('en')

  const rows = [
    row({
      bench: 'long-session',
      figure: `billed input tokens, ${ROUNDS} rounds of ~3 KB tool results, with prompt caching`,
      value: billedCached,
      unit: 'tokens',
      reference: { label: 'the same session without caching', value: billedPlain },
      target: '<= 0.25 x',
      pass: cachingRatio <= 0.25,
      note: `input + ${CACHE_WRITE_PRICE} x cache writes + ${CACHE_READ_PRICE} x cache reads: the API's prices of 5-minute cache writes and reads${promptCached === promptPlain ? '' : `; prompt tokens ${promptCached.toLocaleString('en')} vs ${promptPlain.toLocaleString('en')}`}`,
    }),
    row({
      bench: 'long-session',
      figure: `prompt tokens per call, ${SIDE} calls after the first compaction, ${windowText}`,
      value: afterMean,
      unit: 'tokens',
      reference: { label: `the ${SIDE} calls before it`, value: beforeMean },
      note: `informative: input + cache writes + reads; ${folds.length} compactions${foldsInAfter > 0 ? ` (${foldsInAfter} in the ${SIDE} calls after)` : ''}, each ${shrink((fold) => fold.tokens_before)} -> ${shrink((fold) => fold.tokens_after)} tokens`,
    }),
    row({
      bench: 'long-session',
      figure: `prompt tokens per call, whole session, ${windowText}`,
      value: mean(bounded),
      unit: 'tokens',
      reference: {
        label: `the same session in a ${LARGE_WINDOW.toLocaleString('en')}-token window`,
        value: mean(unbounded),
      },
      note: `informative: largest call ${Math.max(...bounded).toLocaleString('en')} vs ${Math.max(...unbounded).toLocaleString('en')}`,
    }),
  ]
  const withCache = sumUsage(callUsages(cached))
  const notes = [
    `long-session: ${folds.length} compactions in the ${windowText} (${ROUNDS} rounds); the summarizing calls took ${round(mean(summaryPrompt), 0).toLocaleString('en')} prompt tokens and ${round(mean(summaryOutput), 0).toLocaleString('en')} output tokens each on average, ${sum(summaryPrompt).toLocaleString('en')} + ${sum(summaryOutput).toLocaleString('en')} in all (${round((100 * sum(summaryPrompt)) / sum(callUsages(small).map(promptTokens)), 1)} % of the session's prompt tokens), ${sum(summaryUsage.map((usage) => usage.cache_creation_input_tokens ?? 0)).toLocaleString('en')} of them written to the cache.`,
    `long-session: with and without caching, the ${callUsages(cached).length} calls sent ${promptPlain.toLocaleString('en')} prompt tokens; with caching ${withCache.cache_read_input_tokens.toLocaleString('en')} were cache reads, ${withCache.cache_creation_input_tokens.toLocaleString('en')} cache writes, ${withCache.input_tokens.toLocaleString('en')} uncached.`,
    "long-session: the runtime's own CPU per turn as a share of a 2-second model turn is the runtime bench's row \"runtime's own CPU time per turn\" (target <= 40 ms = 2 % of a 2 s turn); run `npm run bench -- runtime`.",
  ]
  if (!first)
    notes.push(`long-session: no compaction in the ${windowText}; the per-call figure is n/a.`)
  return {
    name: 'long-session',
    rows,
    details: {
      rounds: ROUNDS,
      batch: BATCH,
      caching: {
        billedWith: billedCached,
        billedWithout: billedPlain,
        promptTokensWith: promptCached,
        promptTokensWithout: promptPlain,
        calls: callUsages(cached).length,
        compactions: compactions(cached).length + compactions(plain).length,
        usageWith: withCache,
        usageWithout: sumUsage(callUsages(plain)),
      },
      compaction: {
        window: SMALL_WINDOW,
        compactions: folds.map((fold) => ({
          seq: fold.seq,
          trigger: fold.trigger,
          tokensBefore: fold.tokens_before,
          tokensAfter: fold.tokens_after,
          usage: fold.usage,
        })),
        summaryCalls: small.summaryCalls,
        before: before.map((record) => promptTokens(record.usage)),
        after: after.map((record) => promptTokens(record.usage)),
        billedInput: sum(callUsages(small).map(billedInput)),
      },
    },
    notes,
  }
}

function sumUsage(usages: readonly Usage[]): Required<Usage> {
  return {
    input_tokens: sum(usages.map((usage) => usage.input_tokens)),
    output_tokens: sum(usages.map((usage) => usage.output_tokens)),
    cache_creation_input_tokens: sum(usages.map((usage) => usage.cache_creation_input_tokens ?? 0)),
    cache_read_input_tokens: sum(usages.map((usage) => usage.cache_read_input_tokens ?? 0)),
  }
}
