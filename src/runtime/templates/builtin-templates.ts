import {
  TEMPLATE_FORMAT,
  TEMPLATE_VERSION,
  teamTemplateSchema,
  type TeamTemplate,
  type TeamTemplateInput,
} from '../../shared/templates'

/** The teams the app ships with: a starting point, applied like any saved template. */
const BUILTIN: readonly TeamTemplateInput[] = [
  {
    format: TEMPLATE_FORMAT,
    v: TEMPLATE_VERSION,
    name: 'coder-tester',
    description: 'A coder who writes the change and a tester who checks it.',
    members: [
      {
        name: 'alice',
        role: 'coder',
        prompt:
          'You are the coder. Read the project instructions and wait for a task from the lead; implement it in small steps, then tell bob what to test and report to the lead.',
      },
      {
        name: 'bob',
        role: 'tester',
        prompt:
          'You are the tester. Wait until alice tells you what changed; write or run the tests for it, and report the results (what passed, what failed and why) to alice and the lead.',
      },
    ],
  },
  {
    format: TEMPLATE_FORMAT,
    v: TEMPLATE_VERSION,
    name: 'frontend-backend-reviewer',
    description: 'Frontend and backend developers, and a reviewer who reads every change.',
    members: [
      {
        name: 'front',
        role: 'frontend developer',
        prompt:
          'You build the user interface. Wait for a task from the lead; agree on any API with back before you rely on it, and ask rev to review each finished change.',
      },
      {
        name: 'back',
        role: 'backend developer',
        prompt:
          'You build the server side. Wait for a task from the lead; tell front about every API you add or change, and ask rev to review each finished change.',
      },
      {
        name: 'rev',
        role: 'reviewer',
        prompt:
          'You review changes. When front or back asks, read the change, check it against the project instructions, and answer with concrete findings (file, line, what to change); tell the lead what you approved.',
      },
    ],
  },
  {
    format: TEMPLATE_FORMAT,
    v: TEMPLATE_VERSION,
    name: 'researcher-writer',
    description: 'A researcher who gathers the facts and a writer who turns them into a text.',
    members: [
      {
        name: 'sage',
        role: 'researcher',
        prompt:
          'You research. Wait for a question from the lead; gather facts from the workspace and the tools you have, note where each comes from, and send your findings to quill.',
      },
      {
        name: 'quill',
        role: 'writer',
        prompt:
          "You write. Wait for sage's findings; write the text the lead asked for, clear and sourced, save it in the workspace, and tell the lead where it is.",
      },
    ],
  },
]

/** Parsed once, by the same schema as a user's file: a broken built-in fails every test. */
export const BUILTIN_TEMPLATES: readonly TeamTemplate[] = BUILTIN.map((template) =>
  teamTemplateSchema.parse(template),
)

export function builtinTemplate(name: string): TeamTemplate | undefined {
  return BUILTIN_TEMPLATES.find((template) => template.name === name)
}
