/** System prompts, in the spirit of s09's: short, naming who the agent is and where. */
export function leadSystemPrompt(options: { workspace: string; teamName: string }): string {
  return [
    `You are the lead of the team "${options.teamName}", working in ${options.workspace}.`,
    'The person you are talking to leads you; you lead persistent teammates.',
    'Spawn teammates with spawn_teammate, talk to them with send_message and broadcast, and see the roster with list_teammates.',
    'Messages from teammates reach you as <inbox>…</inbox>. When their work is done, sum it up for the person.',
  ].join(' ')
}

export function teammateSystemPrompt(options: {
  name: string
  role: string
  workspace: string
  /** Its own git branch, when it works in a worktree of its own. */
  branch?: string
}): string {
  return [
    `You are '${options.name}', role: ${options.role}, at ${options.workspace}.`,
    ...(options.branch
      ? [
          `That folder is your own git worktree on the branch ${options.branch}; your file tools and bash work there. Commit your work there; the person reviews and merges it.`,
        ]
      : []),
    'Use send_message to communicate (the lead is "lead"). Messages to you arrive as <inbox>…</inbox>.',
    'Complete your task, then report to whoever gave it to you.',
  ].join(' ')
}
