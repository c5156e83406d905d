import { lazyComponent } from '../lazy-component'

/*
 * What the first paint does not show, each in a chunk of its own that loads when first opened,
 * so that the page evaluates less script before it paints the team. Render these inside
 * <Suspense>.
 */

export const SpawnDialog = lazyComponent(() =>
  import('./SpawnDialog').then((module) => module.SpawnDialog),
)
export const SettingsDialog = lazyComponent(() =>
  import('./SettingsDialog').then((module) => module.SettingsDialog),
)
export const HelpDialog = lazyComponent(() =>
  import('./HelpDialog').then((module) => module.HelpDialog),
)
export const BudgetDialog = lazyComponent(() =>
  import('./BudgetDialog').then((module) => module.BudgetDialog),
)
export const ModelDialog = lazyComponent(() =>
  import('./ModelDialog').then((module) => module.ModelDialog),
)
export const ProfileDialog = lazyComponent(() =>
  import('./ProfileDialog').then((module) => module.ProfileDialog),
)
export const ShutdownDialog = lazyComponent(() =>
  import('./ShutdownDialog').then((module) => module.ShutdownDialog),
)
export const InstructionsDialog = lazyComponent(() =>
  import('./InstructionsDialog').then((module) => module.InstructionsDialog),
)
export const TemplatesDialog = lazyComponent(() =>
  import('./TemplatesDialog').then((module) => module.TemplatesDialog),
)
export const SearchPanel = lazyComponent(() =>
  import('./SearchPanel').then((module) => module.SearchPanel),
)
export const RemoveDialog = lazyComponent(() =>
  import('./RemoveDialog').then((module) => module.RemoveDialog),
)
export const McpDialog = lazyComponent(() =>
  import('./McpDialog').then((module) => module.McpDialog),
)
export const TrustDialog = lazyComponent(() =>
  import('./TrustDialog').then((module) => module.TrustDialog),
)
export const NeedsYouView = lazyComponent(() =>
  import('./NeedsYouView').then((module) => module.NeedsYouView),
)
export const TaskBoardView = lazyComponent(() =>
  import('./board/TaskBoardView').then((module) => module.TaskBoardView),
)
export const ChangesView = lazyComponent(() =>
  import('./ChangesView').then((module) => module.ChangesView),
)
