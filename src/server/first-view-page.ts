import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { CommandService } from '../shared/command-service'
import { FIRST_VIEW_BUNDLE, withFirstView, type RenderFirstView } from '../shared/first-view'

/** The built page with the team drawn in it (src/shared/first-view.ts), for whoever serves it. */
export interface FirstViewPages {
  /** index.html with the first view in it; null to serve the file as it is. */
  page(): Promise<string | null>
  close(): void
}

export interface FirstViewOptions {
  /** The built renderer (out/renderer); the bundle is looked for beside it. */
  readonly staticDirectory: string
  readonly service: CommandService
  /** A bundle that fails to load or render: the page is served without a first view. */
  readonly report: (error: unknown) => void
  /**
   * How long a page waits for its drawing (default 3 s); past it, the page is served as built
   * and the drawing, once done, serves the next one. A command that never answered must not
   * keep the window from loading.
   */
  readonly waitMs?: number
}

const WAIT_MS = 3000

/**
 * Loads the first-view bundle once, in the background (a page asked for meanwhile waits for it),
 * and draws the team into index.html. The page is drawn ahead once loaded, and kept until the
 * host reports a change: asked for again with nothing changed, it is ready at once. A checkout
 * built without the bundle serves the plain page; the first view only spares the wait for the
 * page's script.
 */
export function firstViewPages(options: FirstViewOptions): FirstViewPages {
  const bundle = join(options.staticDirectory, ...FIRST_VIEW_BUNDLE)
  let loading: Promise<RenderFirstView | null> | null = null
  const load = () =>
    (loading ??= loadRenderer(bundle).catch((error: unknown) => {
      options.report(error)
      return null
    }))
  // Every event is a change the page might show; what is drawn before it is not reused.
  let changes = 0
  let drawn: { changes: number; page: Promise<string | null> } | null = null
  const subscription = options.service.onEvent(() => void changes++)

  const draw = async (render: RenderFirstView): Promise<string | null> => {
    const [page, view] = await Promise.all([
      readFile(join(options.staticDirectory, 'index.html'), 'utf8'),
      render(options.service),
    ])
    // Nothing to draw (no team open, the first-run screen): the file as built, cached as such.
    return view === null ? null : withFirstView(page, view)
  }
  const page = async (): Promise<string | null> => {
    const render = await load()
    if (render === null) return null
    if (drawn?.changes !== changes) {
      const attempt = { changes, page: draw(render) }
      drawn = attempt
      // A failure is not kept: the next page tries again.
      attempt.page.catch(() => {
        if (drawn === attempt) drawn = null
      })
    }
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), options.waitMs ?? WAIT_MS)
    })
    try {
      return await Promise.race([drawn.page, late])
    } catch (error) {
      options.report(error)
      return null
    } finally {
      clearTimeout(timer)
    }
  }
  // After the caller's start: loading and drawing compete with nothing it prints first.
  const ahead = setImmediate(() => void page())
  return {
    page,
    close() {
      clearImmediate(ahead)
      subscription.dispose()
    },
  }
}

async function loadRenderer(bundle: string): Promise<RenderFirstView | null> {
  let module: { renderFirstView?: unknown }
  try {
    module = (await import(pathToFileURL(bundle).href)) as { renderFirstView?: unknown }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') return null
    throw error
  }
  if (typeof module.renderFirstView !== 'function')
    throw new Error(`${bundle} does not export renderFirstView; rebuild it with npm run build`)
  return module.renderFirstView as RenderFirstView
}
