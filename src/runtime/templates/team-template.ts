import { DEFAULT_ENGINE, engineOf } from '../../shared/engine'
import { TeamError } from '../../shared/errors'
import { modelChoiceOf } from '../../shared/model-choice'
import { LEAD, USER } from '../../shared/names'
import type { Member } from '../../shared/roster'
import {
  TEMPLATE_FORMAT,
  TEMPLATE_VERSION,
  type TeamTemplate,
  type TemplateMember,
} from '../../shared/templates'
import { readTranscript } from '../agents/transcript-store'
import type { TeamHost } from '../host/host'
import { TeamNote } from '../instructions/team-note'
import { Roster } from '../roster/roster'
import { assertEngineAvailable } from '../host/engine-check'
import { PLAN_FIRST_NOTE } from '../host/spawn-request'
import type { TeamPaths } from '../team/paths'
import { assertTemplateName } from './template-store'

/**
 * The team of a workspace as a template: every member's name, role, model, thinking and first
 * prompt (the first turn of its transcript), the lead's model and the team note; no
 * transcripts, no mail. Read from the files, so it works whether the team runs or not.
 */
export function templateFromTeam(
  paths: TeamPaths,
  options: { name: string; description?: string; nowSeconds: number },
): TeamTemplate {
  assertTemplateName(options.name)
  const roster = Roster.read(paths)
  if (roster.members.length === 0)
    throw new TeamError(
      'empty-team',
      `The team in ${paths.workspace} has no members to save; spawn teammates first.`,
    )
  const lead = modelChoiceOf(roster.lead)
  const note = new TeamNote(paths.root).read()
  return {
    format: TEMPLATE_FORMAT,
    v: TEMPLATE_VERSION,
    name: options.name,
    description: options.description ?? '',
    ...(lead.model !== null || lead.thinking !== null
      ? {
          lead: {
            ...(lead.model !== null ? { model: lead.model } : {}),
            ...(lead.thinking !== null ? { thinking: lead.thinking } : {}),
          },
        }
      : {}),
    ...(note.problem === null && note.text.trim() !== '' ? { note: note.text } : {}),
    members: roster.members.map((member) => templateMember(paths, member)),
    created_at: options.nowSeconds,
    updated_at: options.nowSeconds,
  }
}

function templateMember(paths: TeamPaths, member: Member): TemplateMember {
  const choice = modelChoiceOf(member)
  const planFirst = member['plan_first'] === true
  const engine = engineOf(member)
  return {
    name: member.name,
    role: member.role.trim() === '' ? 'teammate' : member.role.slice(0, 200),
    ...(choice.model !== null ? { model: choice.model } : {}),
    ...(choice.thinking !== null ? { thinking: choice.thinking } : {}),
    prompt: firstPrompt(paths, member, planFirst),
    ...(planFirst ? { plan_first: true } : {}),
    ...optionalFields(member),
    ...(engine === DEFAULT_ENGINE ? {} : { engine }),
  }
}

/** The member's first spawn prompt, as its transcript holds it (without the plan-first rule). */
function firstPrompt(paths: TeamPaths, member: Member, planFirst: boolean): string {
  const first = readTranscript(paths.transcript(member.name)).records.find(
    (record) => record.kind === 'user',
  )
  let text = first?.kind === 'user' ? first.text : ''
  if (planFirst && text.endsWith(PLAN_FIRST_NOTE)) text = text.slice(0, -PLAN_FIRST_NOTE.length)
  text = text.slice(0, 200_000)
  return text.trim() === ''
    ? `You are ${member.name}, the team's ${member.role || 'teammate'}. Wait for a task from the lead.`
    : text
}

/** Fields other features keep on a member (profile, worktree, auto-claim), when well-formed. */
function optionalFields(
  entry: Readonly<Record<string, unknown>>,
): Pick<TemplateMember, 'profile' | 'worktree' | 'auto_claim'> {
  const profile = entry['profile']
  const worktree = entry['worktree']
  const autoClaim = entry['auto_claim']
  return {
    ...(typeof profile === 'string' && profile.length > 0 && profile.length <= 64
      ? { profile }
      : {}),
    // The roster keeps a worktree's record (an object); a template keeps only that it had one.
    ...(typeof worktree === 'boolean'
      ? { worktree }
      : typeof worktree === 'object' && worktree !== null
        ? { worktree: true }
        : {}),
    ...(typeof autoClaim === 'boolean' ? { auto_claim: autoClaim } : {}),
  }
}

/**
 * Applies `template` to the open team: the lead's model, the note (when the workspace has none)
 * and each member spawned with its first prompt (and engine). Only a team without members takes
 * a template, so that no one's work is replaced; one with an engine that cannot run here is
 * refused before anything changes.
 */
export async function applyTemplate(
  host: TeamHost,
  template: TeamTemplate,
  by = USER,
): Promise<string> {
  const existing = host.team.roster.members
  if (existing.length > 0)
    throw new TeamError(
      'team-not-empty',
      `The team in ${host.team.paths.workspace} already has members (${existing.map((member) => member.name).join(', ')}); apply a template to a new or empty workspace.`,
    )
  // Every member's engine before the first spawn: a template is applied whole or not at all.
  for (const member of template.members)
    assertEngineAvailable(engineOf(member), host.engineAvailability())
  const lines = [`Applied the template "${template.name}":`]
  if (template.lead)
    lines.push(
      host.setModel(LEAD, {
        model: template.lead.model ?? null,
        thinking: template.lead.thinking ?? null,
      }),
    )
  if (template.note !== undefined && template.note.trim() !== '') {
    const current = host.note.read()
    if (current.problem === null && current.text.trim() === '') {
      host.note.write(template.note, Date.now() / 1000)
      lines.push('Set the team note.')
    } else lines.push('Kept the workspace’s own team note.')
  }
  for (const member of template.members) {
    lines.push(
      await host.spawn({
        name: member.name,
        role: member.role,
        prompt: member.prompt,
        model: member.model ?? null,
        thinking: member.thinking ?? null,
        planFirst: member.plan_first === true,
        ...(member.profile === undefined ? {} : { profile: member.profile }),
        ...(member.worktree === undefined ? {} : { worktree: member.worktree }),
        ...(member.auto_claim === undefined ? {} : { autoClaim: member.auto_claim }),
        ...(member.engine === undefined ? {} : { engine: member.engine }),
        by,
      }),
    )
  }
  return lines.join('\n')
}
