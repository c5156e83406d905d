import type { AgentTeamsApi, Params, Result } from '../../shared/contract'

/**
 * What the window asks about the project: the instruction files an agent is given, the team
 * note, and team templates. Plain calls: the dialogs that ask show the answers and failures.
 */
export interface ProjectCommands {
  getInstructions(name: string): Promise<Result<'getInstructions'>>
  getTeamNote(): Promise<Result<'getTeamNote'>>
  setTeamNote(text: string): Promise<Result<'setTeamNote'>>
  listTemplates(): Promise<Result<'listTemplates'>>
  saveTemplate(params: Params<'saveTemplate'>): Promise<Result<'saveTemplate'>>
  editTemplate(params: Params<'editTemplate'>): Promise<Result<'editTemplate'>>
  applyTemplate(name: string): Promise<Result<'applyTemplate'>>
  deleteTemplate(name: string): Promise<void>
  exportTemplate(name: string): Promise<Result<'exportTemplate'>>
  importTemplate(params: Params<'importTemplate'>): Promise<Result<'importTemplate'>>
}

export function createProjectCommands(api: AgentTeamsApi): ProjectCommands {
  return {
    getInstructions: (name) => api.getInstructions({ name }),
    getTeamNote: () => api.getTeamNote({}),
    setTeamNote: (text) => api.setTeamNote({ text }),
    listTemplates: () => api.listTemplates({}),
    saveTemplate: (params) => api.saveTemplate(params),
    editTemplate: (params) => api.editTemplate(params),
    applyTemplate: (name) => api.applyTemplate({ name }),
    async deleteTemplate(name) {
      await api.deleteTemplate({ name })
    },
    exportTemplate: (name) => api.exportTemplate({ name }),
    importTemplate: (params) => api.importTemplate(params),
  }
}
