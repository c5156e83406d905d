import { prerender } from 'react-dom/static'
import { createStore } from 'zustand/vanilla'
import { commandsOver, type AgentTeamsApi } from '../../shared/contract'
import type { CommandRunner } from '../../shared/command-service'
import type { RenderFirstView } from '../../shared/first-view'
import { LEAD } from '../../shared/names'
import { own } from '../../shared/own'
import { Shell } from '../shell/App'
import { checkReplies } from '../checked-api'
import { StoreProvider } from '../store/context'
import { createAppStore, type AppState, type AppStore } from '../store/store'
import '../zod-config'
import { FirstViewContext } from './context'

/**
 * The host's entry of the first view (see src/shared/first-view.ts), built into
 * out/first-view/first-view.mjs: the store boots from the host's own commands, exactly as the
 * page's does over its transport, and the window's shell renders to HTML from that state.
 * Nothing subscribes to events: the HTML is the state of one moment, which the page replaces.
 */
export const renderFirstView: RenderFirstView = async (runner) => {
  const store = createAppStore(checkReplies(hostApi(runner)))
  const stop = store.getState().start()
  try {
    await boot(store)
    const state = store.getState()
    // Only the team is drawn ahead: the first-run and failure screens are light already.
    if (state.phase.kind !== 'ready' || !state.firstRunDone || state.workspace === null) return null
    // Rendered on a server, zustand reads a store's initial state (useSyncExternalStore's
    // server snapshot): a store that starts where this one is now.
    const booted = createStore<AppState>()(() => state)
    const { prelude } = await prerender(
      <FirstViewContext value={true}>
        <StoreProvider store={booted}>
          <Shell />
        </StoreProvider>
      </FirstViewContext>,
      // Each Suspense boundary inline, whatever its size: the page's policy runs none of the
      // scripts that would put an outlined one in place, and nothing is streamed here.
      { progressiveChunkSize: Number.POSITIVE_INFINITY },
    )
    return withoutStyleAttributes(await new Response(prelude).text())
  } finally {
    stop()
  }
}

/**
 * The page's policy applies no inline style attribute but a few known ones (the diff view's,
 * by hash), and the page's own components write none: what a library writes (a Markdown table
 * column's alignment) is dropped here, where the page would refuse it. In React's markup every
 * `<` and `>` outside a tag, and every `"` inside an attribute's value, is escaped, so this
 * matches attributes of tags only.
 */
export function withoutStyleAttributes(html: string): string {
  return html.replace(/<[^>]*>/g, (tag) => tag.replace(/\sstyle="[^"]*"/g, ''))
}

/** The contract over the host's commands, in process; events are not listened to. */
function hostApi(runner: CommandRunner): AgentTeamsApi {
  return {
    ...commandsOver((name, params) => runner.execute(name, params)),
    onEvents: () => ({ dispose: () => undefined }),
  }
}

/** Resolves once the boot is over and the lead's latest page, asked for beside it, is in. */
function boot(store: AppStore): Promise<void> {
  const done = (state: AppState) =>
    state.phase.kind !== 'connecting' && own(state.transcripts, LEAD)?.status !== 'loading'
  return new Promise((resolve) => {
    if (done(store.getState())) return resolve()
    const unsubscribe = store.subscribe((state) => {
      if (!done(state)) return
      unsubscribe()
      resolve()
    })
  })
}
