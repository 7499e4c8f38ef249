import { type FilterImplOptions, type Liquid, toValue } from 'liquidjs'
import { DATE_FILTERS } from './date-filters.ts'
import { NUMBER_FILTERS } from './number-filters.ts'
import { TEXT_FILTERS } from './text-filters.ts'

type Handler = Extract<FilterImplOptions, (...args: never[]) => unknown>

/**
 * The filters a document author needs beyond Liquid's standard set (which already has `default`,
 * `json` and `date` with a time zone): money, number_format, percent, date_format,
 * datetime_format, pad_start, pad_end.
 */
export function registerDocumentFilters(engine: Liquid): void {
  for (const [name, filter] of Object.entries({ ...NUMBER_FILTERS, ...DATE_FILTERS, ...TEXT_FILTERS })) {
    const handler = filter as Handler
    // liquidjs hands literals such as `nil` and `empty` over as drops; the filters want values
    engine.registerFilter(
      name,
      function (this: ThisParameterType<Handler>, value: unknown, ...args: unknown[]) {
        return handler.call(this, toValue(value), ...args.map(toValue))
      },
    )
  }
}
