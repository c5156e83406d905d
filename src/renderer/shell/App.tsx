import { Suspense, useEffect, useState } from 'react'
import type { AgentTeamsApi } from '../../shared/contract'
import { assertNever } from '../../shared/errors'
import { checkReplies } from '../checked-api'
import { Banners } from './Banners'
import { Dialog } from '../ui/Dialog'
import { ExpiredAddress } from '../workspace/ExpiredAddress'
import { FirstRun, BrandMark } from '../workspace/FirstRun'
import { Header } from './Header'
import {
  BudgetDialog,
  HelpDialog,
  InstructionsDialog,
  McpDialog,
  TrustDialog,
  UndoDialog,
  ModelDialog,
  ProfileDialog,
  RemoveDialog,
  SearchPanel,
  SettingsDialog,
  ShutdownDialog,
  SpawnDialog,
  TemplatesDialog,
  SchedulesDialog,
} from './lazy'
import { MainArea } from './MainArea'
import { OpenWorkspace } from '../workspace/OpenWorkspace'
import { Roster } from '../roster/Roster'
import { useShortcuts } from './shortcuts'
import { useAddressView } from './useAddressView'
import { useNeedsYouTitle } from './window-title'
import { useIsFirstView } from '../first-view/context'
import { useFirstViewHandOver } from '../first-view/hand-over'
import { LEAD } from '../../shared/names'
import { own } from '../../shared/own'
import { StoreProvider, useAppStore, useAppStoreApi } from '../store/context'
import { createAppStore, type AppStore } from '../store/store'
import type { ConnectionStatus, DialogState } from '../store/ui'

export interface AppProps {
  /** The contract's API, whichever transport carries it. */
  readonly api: AgentTeamsApi
  /** Reports the transport's state (browser mode's WebSocket); returns the unsubscribe. */
  readonly onConnectionChange?: (listener: (status: ConnectionStatus) => void) => () => void
}

export function App({ api, onConnectionChange }: AppProps) {
  const [store] = useState<AppStore>(() => createAppStore(checkReplies(api)))
  useEffect(() => store.getState().start(), [store])
  useEffect(
    () => onConnectionChange?.((status) => store.getState().setConnection(status)),
    [store, onConnectionChange],
  )
  return (
    <StoreProvider store={store}>
      <Shell />
    </StoreProvider>
  )
}

export function Shell() {
  const store = useAppStoreApi()
  useShortcuts(store)
  useAddressView(store)
  useNeedsYouTitle()
  const phase = useAppStore((state) => state.phase)
  const inTeam = useAppStore((state) => state.firstRunDone && state.workspace !== null)
  const rosterHidden = useAppStore((state) => state.rosterHidden)
  const expired = useAppStore((state) => state.connection === 'expired')
  // The first view shows the lead's chat with its latest page: the app takes over once it can
  // draw as much (or is to show something else).
  const canDrawFirstView = useAppStore(
    (state) =>
      state.phase.kind !== 'connecting' &&
      !(
        state.phase.kind === 'ready' &&
        state.selected === LEAD &&
        state.view === 'conversation' &&
        own(state.transcripts, LEAD)?.status === 'loading'
      ),
  )
  if (useFirstViewHandOver(expired || canDrawFirstView)) return null
  if (expired) return <ExpiredAddress />
  switch (phase.kind) {
    case 'connecting':
      return (
        <div className="splash">
          <BrandMark large />
          <p className="muted">Connecting to the team…</p>
        </div>
      )
    case 'failed':
      return (
        <div className="splash">
          <BrandMark large />
          <h1>Agent Teams could not start</h1>
          <p className="inline-error" role="alert">
            {phase.message}
          </p>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Reload
          </button>
        </div>
      )
    case 'ready':
      return (
        <>
          {inTeam ? (
            <div className="app">
              <Header />
              <div className="app-body">
                {rosterHidden ? null : <Roster />}
                <div className="main-column">
                  <Banners />
                  <MainArea />
                </div>
              </div>
            </div>
          ) : (
            <div className="app app-first-run">
              <Banners />
              <FirstRun />
            </div>
          )}
          <Dialogs />
        </>
      )
    default:
      return assertNever(phase, 'boot phase')
  }
}

function Dialogs() {
  const firstView = useIsFirstView()
  const dialog = useAppStore((state) => state.dialog)
  // A workspace the person has not trusted is asked about before anything else opens.
  const askTrust = useAppStore(
    (state) => state.trust !== null && !state.trust.trusted && !state.trust.declined,
  )
  // Dialogs wait for the app: the first view is the team only.
  if (firstView) return null
  // Each dialog is a chunk of its own (components/lazy.tsx), loaded when first opened.
  if (dialog === null && askTrust)
    return (
      <Suspense fallback={null}>
        <TrustDialog />
      </Suspense>
    )
  return dialog === null ? null : (
    <Suspense fallback={null}>
      <DialogView dialog={dialog} />
    </Suspense>
  )
}

function DialogView({ dialog }: { readonly dialog: DialogState }) {
  const closeDialog = useAppStore((state) => state.closeDialog)
  switch (dialog.kind) {
    case 'spawn':
      return <SpawnDialog prefill={dialog.prefill} />
    case 'settings':
      return <SettingsDialog />
    case 'help':
      return <HelpDialog />
    case 'open-workspace':
      return (
        <Dialog
          title="Open a folder"
          description="The team lives in the folder’s .team/ directory; opening another folder closes this team (it comes back when you reopen its folder)."
          onClose={closeDialog}
        >
          <OpenWorkspace autoFocus />
        </Dialog>
      )
    case 'budget':
      return <BudgetDialog name={dialog.name} />
    case 'model':
      return <ModelDialog name={dialog.name} />
    case 'profile':
      return <ProfileDialog name={dialog.name} />
    case 'shutdown':
      return <ShutdownDialog name={dialog.name} />
    case 'instructions':
      return <InstructionsDialog name={dialog.name} />
    case 'templates':
      return <TemplatesDialog />
    case 'schedules':
      return <SchedulesDialog />
    case 'search':
      return <SearchPanel />
    case 'remove':
      return <RemoveDialog name={dialog.name} />
    case 'mcp':
      return <McpDialog />
    case 'trust':
      return <TrustDialog />
    case 'undo':
      return <UndoDialog name={dialog.name} target={dialog.target} />
    default:
      return assertNever(dialog, 'dialog')
  }
}
