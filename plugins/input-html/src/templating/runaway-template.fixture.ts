/**
 * One output tag that runs for seconds: sorting half a million strings by a property costs
 * ~1.4 s per sort on a fast machine, and there are eight. liquidjs cannot interrupt it between
 * nodes, so only the worker's hard time budget ends it; its memory stays far under liquidjs'
 * cooperative limit, so that limit does not end it first.
 */
export const SLOW_SINGLE_NODE =
  '{% assign s = "b,a," %}{% for i in (1..18) %}{% assign s = s | append: s %}{% endfor %}' +
  `{{ s | split: "," | ${Array(8).fill('sort_natural: "first" | reverse').join(' | ')} | size }}`
