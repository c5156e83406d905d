import { useMemo } from 'react'
import { costOfModels, type Cost, type ModelUsage } from '../../shared/cost'
import { useAppStore } from '../store/context'
import { pricesOf } from '../store/costs'

/** What per-model usage costs at the current prices; computed again only when either changes. */
export function useCost(usage: ModelUsage): Cost {
  const prices = useAppStore(pricesOf)
  return useMemo(() => costOfModels(usage, prices), [usage, prices])
}
