import type { MenuCommand } from '../../shared/desktop'
import { assertNever } from '../../shared/errors'
import type { AppState } from './store'

/**
 * Runs a command from the desktop shell (the application menu, a clicked notification) through
 * the same actions the window's own buttons and shortcuts use. Team commands do nothing while
 * no team is shown (the first-run screen has no roster to toggle or team to stop).
 */
export function runMenuCommand(state: AppState, command: MenuCommand): void {
  const inTeam = state.firstRunDone && state.workspace !== null
  const report = (title: string) => (error: unknown) => state.reportFailure(title, error)
  switch (command.kind) {
    case 'open-folder':
      // The OS picker where there is one; the folder dialog otherwise.
      state
        .pickFolder()
        .then((picked) => {
          if (!picked.supported) state.openDialog({ kind: 'open-workspace' })
        })
        .catch(report('Could not open the folder'))
      return
    case 'open-recent':
      state.openWorkspace(command.path).catch(report(`Could not open ${command.path}`))
      return
    case 'close-folder':
      if (state.workspace !== null)
        state.closeWorkspace().catch(report('Could not close the folder'))
      return
    case 'show-shortcuts':
      state.openDialog({ kind: 'help' })
      return
    case 'toggle-roster':
    case 'toggle-activity':
    case 'toggle-timeline':
    case 'spawn-teammate':
    case 'stop-all':
    case 'resume-all':
    case 'search-team':
    case 'show-agent':
      if (inTeam) runTeamCommand(state, command)
      return
    default:
      assertNever(command, 'menu command')
  }
}

type TeamCommand = Extract<
  MenuCommand,
  {
    kind:
      | 'toggle-roster'
      | 'toggle-activity'
      | 'toggle-timeline'
      | 'spawn-teammate'
      | 'stop-all'
      | 'resume-all'
      | 'search-team'
      | 'show-agent'
  }
>

function runTeamCommand(state: AppState, command: TeamCommand): void {
  const report = (title: string) => (error: unknown) => state.reportFailure(title, error)
  switch (command.kind) {
    case 'toggle-roster':
      state.toggleRoster()
      return
    case 'toggle-activity':
      state.showView(state.view === 'activity' ? 'conversation' : 'activity')
      return
    case 'toggle-timeline':
      state.showView(state.view === 'timeline' ? 'conversation' : 'timeline')
      return
    case 'spawn-teammate':
      state.openDialog({ kind: 'spawn', prefill: null })
      return
    case 'stop-all':
      state.stopAll().catch(report('Could not stop the team'))
      return
    case 'resume-all':
      state.resumeAll().catch(report('Could not resume the team'))
      return
    case 'search-team':
      state.openDialog({ kind: 'search' })
      return
    case 'show-agent':
      if (state.agents[command.name] !== undefined) state.select(command.name, 'conversation')
      return
    default:
      assertNever(command, 'team command')
  }
}
