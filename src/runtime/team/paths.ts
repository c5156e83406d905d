import { join, resolve } from 'node:path'

/** Every path under a workspace's `.team/` folder, in one place. */
export class TeamPaths {
  readonly workspace: string
  readonly root: string
  constructor(workspace: string) {
    this.workspace = resolve(workspace)
    this.root = join(this.workspace, '.team')
  }
  get config(): string {
    return join(this.root, 'config.json')
  }
  /** Requests from other processes to the running team (`agent-teams stop`), appended. */
  get control(): string {
    return join(this.root, 'control.jsonl')
  }
  /** The team's scheduled runs, written only by the person's actions (schedules/). */
  get schedules(): string {
    return join(this.root, 'schedules.json')
  }
  /** The team's sandbox settings for bash: its network allow-list (team-sandbox.ts). */
  get sandboxSettings(): string {
    return join(this.root, 'sandbox.json')
  }
  /** The team's reactions: check command, nudges, conflicts (reactions/config-file.ts). */
  get reactionsConfig(): string {
    return join(this.root, 'reactions.json')
  }
  /** Every reaction the app had, one line each, appended (`shared/unattended-log.ts`). */
  get reactionsLog(): string {
    return join(this.root, 'reactions.jsonl')
  }
  /** MCP servers added in the window or the CLI (the workspace's own are in `.mcp.json`). */
  get mcpServers(): string {
    return join(this.root, 'mcp.json')
  }
  /** The workspace's MCP servers in Claude Code's format, beside `.team/`. */
  get workspaceMcpServers(): string {
    return join(this.workspace, '.mcp.json')
  }
  get inboxDirectory(): string {
    return join(this.root, 'inbox')
  }
  /** The live segment of `name`'s inbox: the file senders append to. */
  inbox(name: string): string {
    return join(this.inboxDirectory, `${name}.jsonl`)
  }
  /** The consumer's own state for `name`'s inbox (cursor, rejected log, archive, lock). */
  mailboxState(name: string): string {
    return join(this.root, 'mailbox', name)
  }
  cursor(name: string): string {
    return join(this.mailboxState(name), 'cursor.json')
  }
  rejected(name: string): string {
    return join(this.mailboxState(name), 'rejected.jsonl')
  }
  /** Ids delivered by a consumer that keeps no records of its own (`agent-teams drain`). */
  deliveredIds(name: string): string {
    return join(this.mailboxState(name), 'delivered-ids.txt')
  }
  archiveDirectory(name: string): string {
    return join(this.mailboxState(name), 'archive')
  }
  archivedSegment(name: string, segment: number): string {
    return join(this.archiveDirectory(name), `${String(segment).padStart(6, '0')}.jsonl`)
  }
  transcript(name: string): string {
    return join(this.root, 'transcripts', `${name}.jsonl`)
  }
  consumerLock(name: string): string {
    return join(this.mailboxState(name), 'consumer.lock')
  }
}
