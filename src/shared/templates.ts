import { z } from 'zod'
import { engineSchema } from './engine'
import { TEAM_NOTE_MAX_CHARS } from './instructions'
import { modelIdSchema, thinkingBudgetSchema } from './model-choice'
import { isValidName, NAME_RULE, RESERVED_NAMES } from './names'

/**
 * Team templates: a team's members (name, role, model, thinking, first prompt) saved to be
 * applied to another workspace. Kept in the user's config folder, one file a template, and
 * exported and imported in the same format.
 */

export const TEMPLATE_FORMAT = 'agent-teams-template'
export const TEMPLATE_VERSION = 1
export const MAX_TEMPLATE_MEMBERS = 32

export const TEMPLATE_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/
export const TEMPLATE_NAME_RULE =
  'a template name is 1-64 characters: lowercase letters, digits, "-" and "_", starting with a letter'

export const templateNameSchema = z
  .string({ message: `is not a template name (${TEMPLATE_NAME_RULE})` })
  .regex(TEMPLATE_NAME_PATTERN, { message: `is not a template name (${TEMPLATE_NAME_RULE})` })

export const templateMemberSchema = z
  .object({
    name: z
      .string()
      .refine(isValidName, { message: `is not an agent name (${NAME_RULE})` })
      .refine((name) => !RESERVED_NAMES.includes(name), {
        message: `is reserved (${RESERVED_NAMES.join(', ')})`,
      }),
    role: z.string().trim().min(1, { message: 'is empty' }).max(200),
    /** Its own model; absent: the team's. */
    model: modelIdSchema.optional(),
    /** Its thinking budget; absent or null: off. */
    thinking: thinkingBudgetSchema.nullable().optional(),
    /** What it is told when the template is applied (its spawn prompt). */
    prompt: z.string().trim().min(1, { message: 'is empty' }).max(200_000),
    plan_first: z.boolean().optional(),
    /** Its permission profile, where the app has them. */
    profile: z.string().min(1).max(64).optional(),
    /** Whether it works in a git worktree of its own. */
    worktree: z.boolean().optional(),
    /** Whether it claims tasks from the task board by itself. */
    auto_claim: z.boolean().optional(),
    /** What runs its turns; absent: builtin. */
    engine: engineSchema.optional(),
  })
  .strict()
export type TemplateMember = z.infer<typeof templateMemberSchema>

export const teamTemplateSchema = z
  .object({
    format: z.literal(TEMPLATE_FORMAT, { message: `must be "${TEMPLATE_FORMAT}"` }),
    v: z.literal(TEMPLATE_VERSION, {
      message: `is not a template version this app reads (expected ${TEMPLATE_VERSION})`,
    }),
    name: templateNameSchema,
    description: z.string().max(2_000).default(''),
    /** The lead's own model and thinking. */
    lead: z
      .object({
        model: modelIdSchema.optional(),
        thinking: thinkingBudgetSchema.nullable().optional(),
      })
      .strict()
      .optional(),
    /** The team note the template brings (.team/note.json). */
    note: z.string().max(TEAM_NOTE_MAX_CHARS).optional(),
    members: z
      .array(templateMemberSchema)
      .min(1, { message: 'must hold at least one member' })
      .max(MAX_TEMPLATE_MEMBERS),
    created_at: z.number().optional(),
    updated_at: z.number().optional(),
  })
  .strict()
  .superRefine((template, context) => {
    const seen = new Set<string>()
    template.members.forEach((member, index) => {
      if (seen.has(member.name))
        context.addIssue({
          code: 'custom',
          path: ['members', index, 'name'],
          message: `"${member.name}" appears twice`,
        })
      seen.add(member.name)
    })
  })
export type TeamTemplate = z.infer<typeof teamTemplateSchema>
export type TeamTemplateInput = z.input<typeof teamTemplateSchema>

export const templateEntrySchema = z.object({
  template: teamTemplateSchema,
  /** Shipped with the app: it can be applied and exported, not changed or deleted. */
  builtin: z.boolean(),
})
export type TemplateEntry = z.infer<typeof templateEntrySchema>

/** A file in the templates folder that could not be read, with why. */
export const templateProblemSchema = z.object({ file: z.string(), message: z.string() })
export type TemplateProblem = z.infer<typeof templateProblemSchema>

/** Every zod issue of a template, as one readable line: "members.0.role is empty". */
export function describeTemplateIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join('.') || 'the template'} ${issue.message}`)
    .join('; ')
}
