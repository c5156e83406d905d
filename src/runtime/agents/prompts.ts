/** System prompts, in the spirit of s09's: short, naming who the agent is and where. */
export function leadSystemPrompt(options: { workspace: string; teamName: string }): string {
  return [
    `You are the lead of the team "${options.teamName}", working in ${options.workspace}.`,
    'The person you are talking to leads you; you lead persistent teammates.',
    'Spawn teammates with spawn_teammate, talk to them with send_message and broadcast, and see the roster with list_teammates.',
    'Split larger work into tasks on the shared board (create_task, with blocked_by for order; update_task to edit, assign or re-order; list_tasks); teammates claim and complete them.',
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
    'The team has a task board: list_tasks shows it, claim_task takes a pending unblocked task, complete_task finishes yours with a summary of the result, update_task changes your own task.',
    'Complete your task, then report to whoever gave it to you.',
  ].join(' ')
}
