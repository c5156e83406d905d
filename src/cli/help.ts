/** What `agent-teams --help` prints: every command, its arguments and what it does. */
export const HELP = `agent-teams — script a team of agents from a shell

Usage: agent-teams <command> [arguments] [--workspace DIR] [--json]

Commands:
  send <to> <content> [--from NAME] [--type TYPE]
                         append a message to <to>'s inbox (from defaults to "user")
  broadcast <content> [--from NAME]
                         send to every member but the sender (and to the lead)
  inbox <name> [--all] [--limit N]
                         list pending messages (every message, with its state, with --all)
                         without consuming them
  drain <name>           consume the pending messages as an agent would; prints one JSON
                         object a line, each with its id
  archive <name>         move delivered messages aside (.team/mailbox/<name>/archive/)
  roster [--reset [--yes]]
                         the team; --reset sets an unreadable config.json aside (kept beside
                         it) and starts an empty roster, after asking (--yes: without asking);
                         a valid config.json is never reset
  chat <text>            send the person's message to the lead and show the team's activity
                         until the team is idle (needs ANTHROPIC_API_KEY or saved settings)
  demo [--claude-code]   run the offline demo (no key needed): a coder and a tester build
                         and test a small module; in a fresh folder unless --workspace is given;
                         --claude-code: the tester runs as a Claude Code session (needs the
                         optional dependency @anthropic-ai/claude-agent-sdk)
  transcript <name>      print an agent's transcript
  note [show]            the team note every agent's system prompt includes
  note set <text>        replace it ("" removes it); agents have it from their next call
  note edit --file F     set it to the text of file F
  team list              the team templates: built-in ones and those saved
  team save <name> [--description TEXT] [--replace]
                         save this workspace's team (members, roles, models, first
                         prompts; no transcripts) as a template in the config folder
  team apply <name>      spawn a template's members into a team without members: in the
                         running team, or (no team running) run one here like chat
  team delete <name>     delete a saved template
  team export <name> [--file F] [--replace]
                         write a template as one JSON file (stdout without --file)
  team import --file F [--replace]
                         read a template exported elsewhere (checked before it is kept)
  search <text> [--agent A] [--from NAME] [--tool NAME] [--since DATE] [--until DATE]
                         find text in every transcript and inbox, grouped by agent
                         ([match] marks what matched; --limit N hits, default 200)
  export [--agent A] --format md|jsonl [--out FILE]
                         an agent's transcript, or the whole team's history (every
                         transcript and inbox), as Markdown or JSONL
  timeline [--since DATE|DURATION] [--agent A[,B]] [--kind K[,K]] [--json]
                         everything the team did, in order: messages (with their delivery),
                         statuses, model turns (tokens, cost), tool calls, tasks, approvals,
                         budget pauses, compactions, commits, merges, checks, reactions,
                         scheduled runs; --since 2026-12-01 or 30m, 1h, 2d; --json: one
                         object a line (at as ISO time, kind, agent, id, …)
  timeline --summary [--since DATE|DURATION]
                         while you were away (default: the last day): what finished, what
                         failed, what waits for you, and what it cost
  serve [--port N]       browser mode: run the team headless and serve the app at
                         http://127.0.0.1:PORT (a free port when --port is 0 or not given);
                         open the printed address, which carries the launch's secret token
  mcp list               the team's MCP servers (.mcp.json and .team/mcp.json): in a trusted
                         workspace they are started once and shown with their tools, or why
                         they fail
  mcp add <name> [--env NAME=value]... -- <command> [args...]
  mcp add <name> --url URL [--header "Name: value"]...
                         add a stdio or Streamable HTTP server to .team/mcp.json
  mcp remove <name>      remove a server added with mcp add

  reactions [--json]     the team's reactions (check command, nudges, escalation, conflicts)
                         and how many of each it had, with each teammate's last check
  reactions set check --command CMD [--timeout 10m] | --off
                         run CMD in a teammate's sandbox after each of its commits; a
                         failure goes to its inbox with the output's tail
  reactions set stall|idle-task --after 10m | --off
                         nudge an agent working without a word, or idle with a task in
                         progress, after that long
  reactions set escalate --after 10m
                         no move that long after a nudge: Needs-you and a notification
  reactions set conflicts on|off
                         send a merge conflict to the branch's owner

  trust [--json]         whether you trust this workspace, and everything it grants its
                         agents: MCP servers as they would run (env values, addresses with
                         their queries, headers; secrets marked), the files they run with
                         their sha256, allowed hosts, "approve always" rules and custom
                         profiles; exit 1 when it is not trusted
  trust --yes            trust what the workspace grants now (a running team applies it)
  engines [--json]       what can run a teammate's turns here: builtin (this app's own loop)
                         and claude-code (a Claude Code session), whether each is available
                         (and if not, why and what to install), what it needs and costs

Trust: a workspace whose .team/ the app made is trusted. One that came with its .team/ (a
cloned repository, a team from before this version) is not, nor one whose grants changed
since you agreed (a hand edit, a git pull, an edited server script): until you trust it, no
MCP server starts, no host is allowed, no "approve always" rule applies, custom profiles are
not used, and no agent wakes but by your own message. chat, demo and serve ask on a terminal
(a yes is remembered); --trust-workspace trusts it for this run without asking.

Scheduled runs (.team/schedules.json; they run in the window or serve, while you trust the
workspace, one run at a time):
  schedule add <name> (--at TIME | --in DURATION | --every DURATION | --cron "m h dom mon dow")
        --prompt TEXT [--template T] [--usd CAP] [--tokens CAP] [--missed run-once|skip]
        [--overlap wait|skip]
                         send TEXT to the lead at TIME (ISO 8601, or HH:MM: the next one, local
                         time), after DURATION (30s, 10m, 2h, 1d, 1h30m), every DURATION (at
                         least 1m) or by a cron expression (local time); --template: applied
                         first when the team has no members; every run stops the team at its
                         cap, from its start: --usd dollars and/or --tokens (default: $5);
                         --missed: runs missed while no team ran are caught up once (run-once,
                         the default) or skipped; --overlap: due while a run works, it waits
                         for it (the default) or is skipped
  schedule list [--json] every schedule with its next run and its last run's outcome
  schedule remove <name> remove a schedule
  schedule run-now <name>
                         run it now in the running team (it waits or is skipped, as set, while
                         another run works)

A running team (the app, serve or chat, in another terminal):
  spawn <name> <prompt> --role ROLE [--model ID] [--thinking N] [--plan-first]
        [--worktree|--no-worktree] [--auto-claim] [--mcp NAMES|all|none]
        [--profile P] [--approval auto|ask|plan-first] [--engine builtin|claude-code]
                         spawn a teammate (or re-spawn an idle one) with its first prompt;
                         in a git repository it gets its own worktree on team/<name> unless
                         --no-worktree (or the team turned the default off);
                         --model: its own model (default: the team's), --thinking: extended
                         thinking with a budget of N tokens (at least 1024; off by default);
                         --auto-claim: when idle, it claims the next task that fits its role;
                         --mcp: the MCP servers it may use, by name with commas (default all);
                         --profile: its tools (reviewer, tester, implementer (default), or a
                         custom one); --approval: what waits for you (default: the profile's);
                         --engine: what runs its turns (default builtin; a re-spawn keeps its
                         own; see "agent-teams engines")
  review diff <name> [--scope branch|turn] [--task ID] [--from REV --to REV]
                         what a teammate changed in its worktree: against its base (branch),
                         in its last turn, for one of its tasks, or between two commits
  review merge <name> [--squash] [--into BRANCH] [--hand-back]
                         merge its branch into its base (or BRANCH), with a merge commit or
                         a squash; a conflict is reported (exit 1) and, with --hand-back,
                         sent to the teammate to resolve; the base is left as it was
  review reject <name> --reason TEXT
                         tell the teammate its changes were not accepted, and why
  review comment <name> --file PATH --line N --text TEXT
                         a comment on a line of its diff, sent to its inbox
  remove <name> [--branch keep|merge|delete]
                         take a teammate off the team; a branch with unmerged work needs
                         --branch (nothing is deleted without it)
  undo <name> [--turns N | --task ID | --to SEQ] [--dry-run] [--yes] [--overwrite PATH]...
       [--reason TEXT]
                         put an agent's folder back as it was before its last N turns
                         (default 1), before it took task ID, or at checkpoint SEQ: shows the
                         diff and asks (--yes: without asking; --dry-run: only shows it); files
                         someone else changed since are kept unless named with --overwrite;
                         its commits leave its branch only when nothing else holds them. The
                         undone turns stay in its transcript, marked; it is told in its inbox.
                         A running team does it (refused while the agent works: stop it
                         first); with none running, it is done here
  undo <name> --redo UNDO_ID
                         take an undo back (itself undoable)
  checkpoints <name>     an agent's checkpoints (one before every model turn) and their size
  checkpoints --policy [--max N] [--max-age-days D]
                         how many are kept (default 500 per agent, 14 days); set it
  profiles               the permission profiles (built-in, and .team/profiles.json's)
  profile <name> [--profile P|default] [--approval MODE|default]
                         show or change an agent's profile and approval mode
  queue [--all]          what needs you: tool approvals, questions, plans, pauses, errors,
                         stalls, newest first by agent (--all: answered ones too)
  approve <id> [--always]
                         approve a queue entry (a tool call: once, or --always for this
                         agent and this command pattern; a plan; a resume)
  deny <id> --reason TEXT
                         deny it; the reason goes back to the agent
  answer <id> --text TEXT
                         answer an agent's question (ask_user)
  model <name>           show an agent's model and thinking (the lead's too)
  model <name> [--model ID|default] [--thinking N|off]
                         change them; the agent uses them from its next turn
  stop <name>            stop an agent mid-stream or mid-tool (its bash process group too)
  resume <name>          go on after a stop, a pause, an error or a stall
  shutdown <name>        ask a teammate to shut down (the s10 shutdown protocol)
  plan approve <id>      approve a plan-first teammate's plan
  plan reject <id> --feedback TEXT
                         reject it, asking for a new plan
  requests               shutdown and plan requests with their state
  budget [<name>]        show an agent's (or, without a name, the team's) budget
  budget [<name>] [--tokens N|none] [--rounds N|none] [--usd DOLLARS|none]
                         set it (a limit not given stays as it is; --usd 0.50 is fifty
                         cents); agents paused by a budget go on
  budget [<name>] --clear
                         lift every limit

The task board (.team/tasks/; no running team needed, a running one sees every change):
  tasks add "<subject>" [--description D] [--blocked-by ID[,ID...]] [--as NAME]
                         add a pending task; prints its id
  tasks list             every task with its status, owner and open blockers
  tasks show <id>        one task: description, result, links and history
  tasks claim <id> --as <name>
                         take a pending task: exit 0 when won, 1 when another holds it, it
                         is blocked, or <name> already holds a task in progress (says which)
  tasks done <id> --as <name> [--result TEXT]
                         complete a task <name> holds; says which tasks it unblocked

Exit status: 0 done, 1 refused (the message says what to do), 2 a usage mistake, 70 a bug.

Options:
  --workspace DIR        the folder whose .team/ holds the team (default: the current folder)
  --json                 machine-readable output
  -h, --help             this help

Model settings: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, MODEL_ID, else
$XDG_CONFIG_HOME/agent-teams/settings.json ({"apiKey", "baseURL", "model"}).
Team templates: $XDG_CONFIG_HOME/agent-teams/templates/<name>.json.

Message types: message, broadcast, shutdown_request, shutdown_response, plan_approval_response.
`
