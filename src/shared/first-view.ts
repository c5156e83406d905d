import type { CommandRunner } from './command-service'

/**
 * The first view: the team as the window will show it, rendered to HTML where the page is
 * served (browser mode's server, Electron's app: protocol) and painted before the page's script
 * has run. The script takes over once it has the same state (src/renderer/first-view/).
 *
 * Rendering runs the renderer's own components against the host's commands, so it is built by
 * the renderer's build into a bundle of its own (out/first-view/first-view.mjs) that the host
 * loads on demand; a host that cannot load it serves the page without a first view.
 */
export type RenderFirstView = (commands: CommandRunner) => Promise<string | null>

/** The element that holds the first view, before the app's own root. */
export const FIRST_VIEW_ID = 'first-view'

/** The element the app renders into (src/renderer/index.html). */
export const APP_ROOT_ID = 'root'

/** Where the first view goes: the built page's empty root. */
const ROOT_ELEMENT = `<div id="${APP_ROOT_ID}"></div>`

/**
 * The page with the first view before its root: a disabled, inert fieldset, so nothing in it
 * can be focused or typed into before the app replaces it; what is clicked or pressed on it is
 * kept by the page's inline script for the app to do (src/renderer/first-view/early-input.ts).
 * The page unchanged when it has no empty root (a build that changed it) or there is nothing to
 * show.
 */
export function withFirstView(page: string, html: string | null): string {
  if (html === null || html === '' || !page.includes(ROOT_ELEMENT)) return page
  const view = `<fieldset id="${FIRST_VIEW_ID}" class="first-view" disabled inert aria-busy="true">${html}</fieldset>`
  return page.replace(ROOT_ELEMENT, () => `${view}${ROOT_ELEMENT}`)
}

/** Where the first-view bundle sits: beside the folder of the built page. */
export const FIRST_VIEW_BUNDLE = ['..', 'first-view', 'first-view.mjs'] as const
