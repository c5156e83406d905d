import { useMemo } from 'react'
import { LEAD } from '../../shared/names'
import { useAppStore } from '../store/context'
import { latestPlanOf, leadPlanCards } from '../store/protocols'
import { PlanCard } from './PlanCard'

/**
 * Plans where the person answers them: in the lead chat every plan waiting for a review (and
 * the outcome of those the person answered); in a teammate's view its latest plan.
 */
export function PlanCards({ name }: { readonly name: string }) {
  const protocols = useAppStore((state) => state.protocols)
  const sentReviews = useAppStore((state) => state.sentReviews)
  const isLead = name === LEAD
  const requests = useMemo(() => {
    if (isLead) return leadPlanCards({ protocols, sentReviews })
    const latest = latestPlanOf(protocols, name)
    return latest === null ? [] : [latest]
  }, [isLead, name, protocols, sentReviews])
  if (requests.length === 0) return null
  return (
    <section className="plan-cards" aria-label="Plans">
      {requests.map((request) => (
        <PlanCard key={request.id} request={request} dismissible={isLead} />
      ))}
    </section>
  )
}
