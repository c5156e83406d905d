import { afterAll, beforeAll } from 'vitest'

/**
 * jsdom lays nothing out: elements get a size so the virtualized transcript has a window to
 * fill (`height` px tall, every row 60 px), for the tests of one file.
 */
export function giveElementsASize(height = 2000): void {
  const descriptors = ['clientHeight', 'clientWidth'].map(
    (key) => [key, Object.getOwnPropertyDescriptor(HTMLElement.prototype, key)] as const,
  )
  const measure = HTMLElement.prototype.getBoundingClientRect
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
      configurable: true,
      get: () => height,
    })
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
      configurable: true,
      get: () => 800,
    })
    HTMLElement.prototype.getBoundingClientRect = () => DOMRect.fromRect({ width: 800, height: 60 })
  })
  afterAll(() => {
    for (const [key, descriptor] of descriptors)
      if (descriptor) Object.defineProperty(HTMLElement.prototype, key, descriptor)
    HTMLElement.prototype.getBoundingClientRect = measure
  })
}
