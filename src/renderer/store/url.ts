import { isValidName } from '../../shared/names'
import type { MainView } from './ui'

/**
 * The view in the address: `#/<agent>/<view>`, so that a reload, a bookmark or a second tab
 * opens the same agent and tab. A hash works on every origin the page has (http in browser
 * mode, app:// in Electron) and never reaches a server. The address is anyone's to type, so an
 * agent that is not a name or a view that does not exist reads as no view at all.
 */
const VIEWS: Record<string, MainView> = {
  chat: 'conversation',
  inbox: 'inbox',
  activity: 'activity',
  timeline: 'timeline',
}

export interface AddressView {
  readonly selected: string
  readonly view: MainView
}

export function viewFromHash(hash: string): AddressView | null {
  const match = /^#\/([^/]+)\/([^/]+)$/.exec(hash)
  if (match === null) return null
  const [, agent = '', name = ''] = match
  const view = Object.hasOwn(VIEWS, name) ? VIEWS[name] : undefined
  if (!isValidName(agent) || view === undefined) return null
  return { selected: agent, view }
}

export function hashOf(selected: string, view: MainView): string {
  const name = view === 'conversation' ? 'chat' : view
  return `#/${selected}/${name}`
}
