import { useAppStore } from '../store/context'
import { InlineError } from '../ui/Dialog'
import { OpenWorkspace } from './OpenWorkspace'
import { useCommand } from '../ui/useCommand'

/**
 * The first thing a newcomer sees: without a key, a clear choice between entering one and
 * watching the offline demo; and a folder to work in.
 */
export function FirstRun() {
  const settings = useAppStore((state) => state.settings)
  const workspace = useAppStore((state) => state.workspace)
  const openDialog = useAppStore((state) => state.openDialog)
  const finishFirstRun = useAppStore((state) => state.finishFirstRun)
  const startDemo = useAppStore((state) => state.startDemo)
  const demo = useCommand(startDemo)
  const hasModel = settings !== null && (settings.apiKeySet || settings.useOfflineModel)

  return (
    <div className="first-run">
      <div className="first-run-card">
        <div className="first-run-intro">
          <BrandMark large />
          <h1>Welcome to Agent Teams</h1>
          <p className="lead-text">
            Lead a team of LLM agents. You chat with a <strong>lead</strong>; it spawns persistent
            teammates that work in your folder and talk through mailboxes in its <code>.team/</code>{' '}
            directory.
          </p>
        </div>
        <div className="choices">
          <section className={hasModel ? 'choice choice-done' : 'choice'}>
            <h2>
              <span className="choice-number">1</span> Enter an API key
            </h2>
            <p className="muted">
              {hasModel
                ? settings?.useOfflineModel
                  ? 'The offline model is on.'
                  : 'An API key is set.'
                : 'Use Claude through the Anthropic API, or any compatible endpoint.'}
            </p>
            <button
              type="button"
              className="button"
              onClick={() => openDialog({ kind: 'settings' })}
            >
              {hasModel ? 'Change settings' : 'Enter an API key'}
            </button>
          </section>
          <section className="choice choice-demo">
            <h2>
              <span className="choice-number">or</span> Run the offline demo
            </h2>
            <p className="muted">
              No key, no network: a scripted model plays a lead, a coder and a tester in a fresh
              folder, so you can watch a team work.
            </p>
            <button
              type="button"
              className="button button-primary"
              disabled={demo.pending}
              onClick={() => void demo.run()}
            >
              {demo.pending ? 'Starting the demo…' : 'Run the offline demo'}
            </button>
            <InlineError error={demo.error} />
          </section>
        </div>
        <section className="choice choice-folder">
          <h2>
            <span className="choice-number">2</span> Open a folder
          </h2>
          <p className="muted">
            The folder your team works in. Its team comes back when you reopen it.
          </p>
          {workspace !== null ? (
            <p className="current-folder">
              Open now: <code>{workspace}</code>{' '}
              <button type="button" className="button button-small" onClick={finishFirstRun}>
                Continue to this folder
              </button>
            </p>
          ) : null}
          <OpenWorkspace />
        </section>
      </div>
    </div>
  )
}

export function BrandMark({ large = false }: { readonly large?: boolean }) {
  return (
    <span className={large ? 'brand-mark brand-mark-large' : 'brand-mark'} aria-hidden="true">
      <span />
      <span />
      <span />
    </span>
  )
}
