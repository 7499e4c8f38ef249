import { PLAN_FEATURE_TITLES } from '../plans/plan.ts'
import type { PlanFeature } from '../sdk/plan-feature-contracts.ts'
import type { RenderRequest } from './render.ts'

// The plan features a render request itself can ask for (SPEC 4.2: PDF/A and PDF/UA "Growth plan
// and up"), declared to the plan gate by the renders feature. E-invoicing (`output.einvoice`) is
// declared by the e-invoice feature (einvoices-module.ts). The features still to come declare
// theirs when they land: a template's default invoice, email
// (`delivery.email`), storage destinations (`delivery.storage`, a default destination), batches
// and signed links (their own routes). Their request fields are refused today (decision 0080).

const pdfOption = (request: RenderRequest, name: string): unknown =>
  request.output.format === 'pdf' ? request.output.pdf?.[name] : undefined

export const RENDER_PLAN_FEATURES: Record<string, PlanFeature> = {
  pdfa: {
    title: PLAN_FEATURE_TITLES.pdfa,
    usedBy: (request) => (pdfOption(request, 'pdfa') ? 'output.pdf.pdfa' : undefined),
  },
  pdfua: {
    title: PLAN_FEATURE_TITLES.pdfua,
    usedBy: (request) => (pdfOption(request, 'pdfua') === true ? 'output.pdf.pdfua' : undefined),
  },
  // no request field asks for it: the live renders of a plan without it stop at the included
  // renders (402 render_limit_reached, billing), so it is gated where renders are counted
  overage: { title: PLAN_FEATURE_TITLES.overage },
}
