import { z } from 'zod'

/**
 * What the desktop shell (the application menu, a clicked notification, the second launch of
 * the app) asks the window to do. Main only dispatches these; the window acts on each through
 * the same store actions its own buttons use, so a menu item and a button never differ.
 */
export const menuCommandSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('open-folder') }),
  z.object({ kind: z.literal('open-recent'), path: z.string().min(1) }),
  z.object({ kind: z.literal('close-folder') }),
  z.object({ kind: z.literal('toggle-roster') }),
  z.object({ kind: z.literal('toggle-activity') }),
  /** View > Timeline: the team's timeline and its replay. */
  z.object({ kind: z.literal('toggle-timeline') }),
  z.object({ kind: z.literal('spawn-teammate') }),
  z.object({ kind: z.literal('stop-all') }),
  z.object({ kind: z.literal('resume-all') }),
  /** Team > Search the Team…: the search panel over every transcript and inbox. */
  z.object({ kind: z.literal('search-team') }),
  z.object({ kind: z.literal('show-shortcuts') }),
  /** A clicked notification: show that agent's conversation. */
  z.object({ kind: z.literal('show-agent'), name: z.string().min(1) }),
])
export type MenuCommand = z.infer<typeof menuCommandSchema>
export type MenuCommandKind = MenuCommand['kind']

/** Events only the desktop shell sends (never the runtime): a menu command, a notice. */
export const desktopEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('menu-command'), command: menuCommandSchema }),
  /** Something main refused or could not do for the page (a link it would not open). */
  z.object({
    type: z.literal('desktop-notice'),
    tone: z.enum(['info', 'warning', 'error']),
    title: z.string(),
    message: z.string(),
  }),
])
export type DesktopEvent = z.infer<typeof desktopEventSchema>
