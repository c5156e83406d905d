import type { CommandName, Params, Result } from '../shared/contract'
import { TeamError } from '../shared/errors'
import type { TeamHost } from '../runtime/host/host'
import { applyTemplate, templateFromTeam } from '../runtime/templates/team-template'
import type { TemplateStore } from '../runtime/templates/template-store'

type ProjectCommand =
  | 'getInstructions'
  | 'getTeamNote'
  | 'setTeamNote'
  | 'listTemplates'
  | 'saveTemplate'
  | 'editTemplate'
  | 'applyTemplate'
  | 'deleteTemplate'
  | 'exportTemplate'
  | 'importTemplate'

type Handlers = {
  [N in Extract<CommandName, ProjectCommand>]: (params: Params<N>) => Promise<Result<N>>
}

export interface ProjectHandlerDependencies {
  readonly templates: TemplateStore
  /** The open team's host; throws when there is none. */
  readonly host: () => TeamHost
  /** Refuses a command that may call the model when there is none to call. */
  readonly assertModelSet: () => void
  /** `name`, once it passed the name rule and names the lead or a member. */
  readonly knownAgent: (name: string) => string
  readonly nowSeconds: () => number
}

/** The contract's commands for instruction files, the team note and team templates. */
export function projectHandlers(deps: ProjectHandlerDependencies): Handlers {
  return {
    getInstructions: async ({ name }) => ({
      files: deps.host().instructionFiles(deps.knownAgent(name)),
    }),
    getTeamNote: async () => deps.host().note.read(),
    setTeamNote: async ({ text }) => deps.host().note.write(text, deps.nowSeconds()),
    listTemplates: async () => deps.templates.list(),
    saveTemplate: async ({ name, description, replace }) => ({
      template: deps.templates.save(
        templateFromTeam(deps.host().team.paths, {
          name,
          description,
          nowSeconds: deps.nowSeconds(),
        }),
        { replace },
      ),
    }),
    editTemplate: async ({ previousName, template }) => {
      const previous = deps.templates.get(previousName)
      if (previous.builtin)
        throw new TeamError(
          'reserved-name',
          `"${previousName}" is a built-in template: save your changes under a new name.`,
        )
      const renamed = template.name !== previousName
      const saved = deps.templates.save(
        {
          ...template,
          description: template.description ?? '',
          created_at: previous.template.created_at ?? deps.nowSeconds(),
          updated_at: deps.nowSeconds(),
        },
        { replace: !renamed },
      )
      if (renamed) deps.templates.delete(previousName)
      return { template: saved }
    },
    applyTemplate: async ({ name }) => {
      const { template } = deps.templates.get(name)
      deps.assertModelSet()
      return { summary: await applyTemplate(deps.host(), template) }
    },
    deleteTemplate: async ({ name }) => {
      deps.templates.delete(name)
      return {}
    },
    exportTemplate: async ({ name }) => ({
      fileName: `${name}.agent-teams-template.json`,
      json: deps.templates.exportText(name),
    }),
    importTemplate: async ({ json, replace }) => ({
      template: deps.templates.importText(json, { replace }),
    }),
  }
}
