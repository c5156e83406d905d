import { DEFAULT_PRICES, type Price } from '../../shared/prices'
import type { PriceRow } from './price-rows'

const FIELDS = [
  ['input', 'Input'],
  ['output', 'Output'],
  ['cacheWrite', 'Cache write'],
  ['cacheRead', 'Cache read'],
] as const

/**
 * Prices per model in US dollars per million tokens: the person's own (a model id, or a family
 * prefix such as claude-sonnet-4), with Claude's list prices shown for the rest.
 */
export function PricesField({
  rows,
  onChange,
  newModel,
  error,
}: {
  readonly rows: readonly PriceRow[]
  readonly onChange: (rows: PriceRow[]) => void
  /** The model a new row starts with (the default model, when it has no row yet). */
  readonly newModel: string
  readonly error: string | null
}) {
  const update = (index: number, change: Partial<PriceRow>) =>
    onChange(rows.map((row, at) => (at === index ? { ...row, ...change } : row)))
  const taken = rows.some((row) => row.model.trim() === newModel)
  return (
    <fieldset className="fieldset" data-testid="prices">
      <legend>Prices</legend>
      <p className="field-hint">
        US dollars per million tokens, for costs and dollar budgets. A model with no price here or
        below shows its cost as unknown. Cache write and read may stay empty: 1.25× and 0.1× input.
      </p>
      {rows.length > 0 ? (
        <table className="price-table">
          <thead>
            <tr>
              <th scope="col">Model id or prefix</th>
              {FIELDS.map(([, label]) => (
                <th key={label} scope="col">
                  {label}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={index}>
                <td>
                  <input
                    aria-label={`Model of price ${index + 1}`}
                    spellCheck={false}
                    value={row.model}
                    onChange={(event) => update(index, { model: event.target.value })}
                  />
                </td>
                {FIELDS.map(([field, label]) => (
                  <td key={field}>
                    <input
                      aria-label={`${label} price of ${row.model || `price ${index + 1}`}`}
                      inputMode="decimal"
                      value={row[field]}
                      placeholder={field === 'cacheWrite' || field === 'cacheRead' ? 'auto' : ''}
                      onChange={(event) => update(index, { [field]: event.target.value })}
                    />
                  </td>
                ))}
                <td>
                  <button
                    type="button"
                    className="button button-ghost button-small"
                    aria-label={`Remove the price of ${row.model || `price ${index + 1}`}`}
                    onClick={() => onChange(rows.filter((_, at) => at !== index))}
                  >
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {error !== null ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div>
        <button
          type="button"
          className="button button-small"
          onClick={() =>
            onChange([
              ...rows,
              {
                model: taken ? '' : newModel,
                input: '',
                output: '',
                cacheWrite: '',
                cacheRead: '',
              },
            ])
          }
        >
          Add a price
        </button>
      </div>
      <details className="price-defaults">
        <summary>Claude’s list prices (used where you set none)</summary>
        <table className="price-table">
          <thead>
            <tr>
              <th scope="col">Model family</th>
              {FIELDS.map(([, label]) => (
                <th key={label} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Object.entries(DEFAULT_PRICES).map(([model, price]) => (
              <DefaultRow key={model} model={model} price={price} />
            ))}
          </tbody>
        </table>
      </details>
    </fieldset>
  )
}

function DefaultRow({ model, price }: { readonly model: string; readonly price: Price }) {
  return (
    <tr>
      <td>
        <code>{model}</code>
      </td>
      {FIELDS.map(([field]) => (
        <td key={field}>${price[field]}</td>
      ))}
    </tr>
  )
}
