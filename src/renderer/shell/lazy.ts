import { lazyComponent } from './lazy-component'

/*
 * What the first paint does not show, each in a chunk of its own that loads when first opened,
 * so that the page evaluates less script before it paints the team. Render these inside
 * <Suspense>.
 */

export const SpawnDialog = lazyComponent(() =>
  import('../agents/SpawnDialog').then((module) => module.SpawnDialog),
)
export const SettingsDialog = lazyComponent(() =>
  import('../settings/SettingsDialog').then((module) => module.SettingsDialog),
)
export const HelpDialog = lazyComponent(() =>
  import('./HelpDialog').then((module) => module.HelpDialog),
)
export const BudgetDialog = lazyComponent(() =>
  import('../agents/BudgetDialog').then((module) => module.BudgetDialog),
)
export const ModelDialog = lazyComponent(() =>
  import('../agents/ModelDialog').then((module) => module.ModelDialog),
)
export const ProfileDialog = lazyComponent(() =>
  import('../agents/ProfileDialog').then((module) => module.ProfileDialog),
)
export const ShutdownDialog = lazyComponent(() =>
  import('../agents/ShutdownDialog').then((module) => module.ShutdownDialog),
)
export const InstructionsDialog = lazyComponent(() =>
  import('../agents/InstructionsDialog').then((module) => module.InstructionsDialog),
)
export const TemplatesDialog = lazyComponent(() =>
  import('../roster/TemplatesDialog').then((module) => module.TemplatesDialog),
)
export const SchedulesDialog = lazyComponent(() =>
  import('../roster/SchedulesDialog').then((module) => module.SchedulesDialog),
)
export const SearchPanel = lazyComponent(() =>
  import('../search/SearchPanel').then((module) => module.SearchPanel),
)
export const RemoveDialog = lazyComponent(() =>
  import('../agents/RemoveDialog').then((module) => module.RemoveDialog),
)
export const McpDialog = lazyComponent(() =>
  import('../workspace/McpDialog').then((module) => module.McpDialog),
)
export const TrustDialog = lazyComponent(() =>
  import('../workspace/TrustDialog').then((module) => module.TrustDialog),
)
export const NeedsYouView = lazyComponent(() =>
  import('../needs-you/NeedsYouView').then((module) => module.NeedsYouView),
)
export const TaskBoardView = lazyComponent(() =>
  import('../board/TaskBoardView').then((module) => module.TaskBoardView),
)
export const ChangesView = lazyComponent(() =>
  import('../changes/ChangesView').then((module) => module.ChangesView),
)
export const UndoDialog = lazyComponent(() =>
  import('../undo/UndoDialog').then((module) => module.UndoDialog),
)
export const TimelineView = lazyComponent(() =>
  import('../timeline/TimelineView').then((module) => module.TimelineView),
)
