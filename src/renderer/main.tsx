import './styles.css'
import { FIRST_VIEW_ID } from '../shared/first-view'

/*
 * The page's entry: the stylesheet, and the app (start.tsx, a chunk of its own). Where the
 * server drew the team into the page (src/shared/first-view.ts), the app's half a megabyte is
 * fetched and evaluated only after that first view has been painted: loaded with the page, it
 * took CPU from the first paint on a machine with few cores.
 */
const start = (): Promise<unknown> => import('./start')

if (document.getElementById(FIRST_VIEW_ID) === null) void start()
else requestAnimationFrame(() => setTimeout(() => void start(), 0))
