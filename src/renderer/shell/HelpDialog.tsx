import { useAppStore } from '../store/context'
import { Dialog } from '../ui/Dialog'
import { shortcuts } from './shortcuts'

export function HelpDialog() {
  const closeDialog = useAppStore((state) => state.closeDialog)
  return (
    <Dialog title="Help" onClose={closeDialog} wide>
      <div className="help">
        <section>
          <h3>How a team works</h3>
          <ul className="help-list">
            <li>
              You chat with the <strong>lead</strong>. It plans, spawns teammates and reports back.
            </li>
            <li>
              Teammates are persistent: <em>working</em> → <em>idle</em> → <em>working</em> … until
              they are shut down. A message to an idle teammate wakes it.
            </li>
            <li>
              Agents talk through mailboxes: one JSONL file per agent in <code>.team/inbox/</code>.
              Anything that appends a valid line there reaches that agent; invalid lines are
              rejected and shown, with the reason, in the inbox.
            </li>
            <li>
              The roster, every transcript and pending mail live in the folder’s <code>.team/</code>
              : reopen it and the team is back.
            </li>
          </ul>
        </section>
        <section>
          <h3>Keyboard shortcuts</h3>
          <table className="shortcut-table">
            <tbody>
              {shortcuts.map((shortcut) => (
                <tr key={shortcut.action}>
                  <td>
                    {shortcut.keys.map((keys, index) => (
                      <span key={keys}>
                        {index > 0 ? <span className="muted"> or </span> : null}
                        <kbd>{keys}</kbd>
                      </span>
                    ))}
                  </td>
                  <td>{shortcut.action}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>
    </Dialog>
  )
}
