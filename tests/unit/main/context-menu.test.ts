import type { MenuItemConstructorOptions } from 'electron'
import { describe, expect, it } from 'vitest'
import {
  buildContextMenuTemplate,
  contextTargetScript,
  noContextTarget,
  parseContextTarget,
  type ContextParams,
} from '../../../src/main/context-menu'

const flags = {
  canUndo: true,
  canRedo: true,
  canCut: true,
  canCopy: true,
  canPaste: true,
  canDelete: true,
  canSelectAll: true,
  canEditRichly: false,
}

function params(change: Partial<ContextParams> = {}): ContextParams {
  return {
    isEditable: false,
    selectionText: '',
    misspelledWord: '',
    dictionarySuggestions: [],
    editFlags: flags,
    ...change,
  }
}

function setup(change: Partial<ContextParams>, target = noContextTarget) {
  const calls: string[] = []
  const template = buildContextMenuTemplate(params(change), target, {
    copyText: (text) => calls.push(`copy ${text}`),
    replaceMisspelling: (word) => calls.push(`replace ${word}`),
    addToDictionary: (word) => calls.push(`add ${word}`),
  })
  return { template, calls }
}

const describeItems = (template: MenuItemConstructorOptions[]) =>
  template.map((item) => item.role ?? item.label ?? item.type)

const click = (item: MenuItemConstructorOptions | undefined) =>
  (item?.click as unknown as () => void)()

describe('the right-click menu', () => {
  it('in a field: cut, copy, paste and select all, enabled as the field allows', () => {
    const { template } = setup({
      isEditable: true,
      editFlags: { ...flags, canCut: false, canCopy: false },
    })
    expect(describeItems(template)).toEqual(['cut', 'copy', 'paste', 'separator', 'selectAll'])
    expect(template[0]?.enabled).toBe(false)
    expect(template[2]?.enabled).toBe(true)
  })

  it('over selected text: copy and select all; over nothing: select all only', () => {
    expect(describeItems(setup({ selectionText: 'hello' }).template)).toEqual(['copy', 'selectAll'])
    expect(describeItems(setup({ selectionText: '  ' }).template)).toEqual(['selectAll'])
  })

  it('over a misspelled word: the suggestions first, each replacing it, and Add to Dictionary', () => {
    const { template, calls } = setup({
      isEditable: true,
      misspelledWord: 'teh',
      dictionarySuggestions: ['the', 'ten'],
    })
    expect(describeItems(template).slice(0, 4)).toEqual([
      'the',
      'ten',
      'Add to Dictionary',
      'separator',
    ])
    click(template[1])
    click(template[2])
    expect(calls).toEqual(['replace ten', 'add teh'])
  })

  it('says when there is no suggestion; no spelling items outside a field', () => {
    const none = setup({ isEditable: true, misspelledWord: 'qzx', dictionarySuggestions: [] })
    expect(none.template[0]).toEqual({ label: 'No spelling suggestions', enabled: false })
    const page = setup({ isEditable: false, misspelledWord: 'teh', dictionarySuggestions: ['the'] })
    expect(describeItems(page.template)).toEqual(['selectAll'])
  })

  it('over a message: Copy Message copies its whole text; over code: Copy Code', () => {
    const { template, calls } = setup(
      {},
      { message: 'Here is the fix:\n```\nnpm test\n```', code: 'npm test\n' },
    )
    expect(describeItems(template)).toEqual(['selectAll', 'separator', 'Copy Code', 'Copy Message'])
    click(template[2])
    click(template[3])
    expect(calls).toEqual(['copy npm test\n', 'copy Here is the fix:\n```\nnpm test\n```'])
  })
})

describe('what is under the pointer', () => {
  it('the script looks up the element at the page’s own (zoomed) coordinates', () => {
    const script = contextTargetScript(300, 150, 1.5)
    expect(script).toContain('document.elementFromPoint(200, 100)')
    expect(script).toContain("closest('[data-copy-message]')")
    // It must be one expression that executeJavaScript can evaluate.
    expect(() => new Function(`return ${script}`)).not.toThrow()
  })

  it('the page’s answer is checked; anything else means nothing special', () => {
    expect(parseContextTarget({ message: 'hi', code: null })).toEqual({ message: 'hi', code: null })
    expect(parseContextTarget(undefined)).toEqual(noContextTarget)
    expect(parseContextTarget({ message: 42 })).toEqual(noContextTarget)
  })
})
