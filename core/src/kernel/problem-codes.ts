// The one table of error codes (SPEC 7.3): status and title per code. The HTTP layer turns a
// ProblemError into problem+json from here; nothing else decides a status.
export const PROBLEM_CODES = {
  invalid_json: [400, 'Body is not valid JSON'],
  validation_error: [400, 'Request is invalid'],
  authentication_required: [401, 'Authentication required'],
  invalid_api_key: [401, 'Invalid API key'],
  api_key_expired: [401, 'API key expired'],
  api_key_revoked: [401, 'API key revoked'],
  render_limit_reached: [402, 'Render limit reached'],
  plan_feature_unavailable: [402, 'Feature not in your plan'],
  free_workspace_limit: [402, 'Free workspace limit reached'],
  insufficient_scope: [403, 'Insufficient scope'],
  ip_not_allowed: [403, 'IP address not allowed'],
  test_key_required: [403, 'Test key required'],
  workspace_suspended: [403, 'Workspace suspended'],
  workspace_deletion_scheduled: [403, 'Workspace scheduled for deletion'],
  template_not_allowed_for_key: [403, 'Template not allowed for this key'],
  email_not_verified: [403, 'Email address not verified'],
  region_not_enabled: [403, 'Region not enabled'],
  feature_not_enabled: [403, 'Feature not enabled'],
  invalid_signature: [403, 'Invalid signature'],
  referrer_not_allowed: [403, 'Referrer not allowed'],
  operator_token_required: [401, 'Operator token required'],
  not_found: [404, 'Not found'],
  template_not_found: [404, 'Template not found'],
  render_not_found: [404, 'Render not found'],
  version_not_found: [404, 'Template version not found'],
  upload_not_found: [404, 'Upload not found'],
  method_not_allowed: [405, 'Method not allowed'],
  request_timeout: [408, 'Request timeout'],
  render_timeout: [408, 'Render timed out'],
  idempotency_in_progress: [409, 'Idempotent request in progress'],
  draft_revision_conflict: [409, 'Draft revision conflict'],
  conflict: [409, 'Conflict'],
  zero_retention: [409, 'Zero retention'],
  item_files_expired: [409, 'Item files expired'],
  email_connection_in_use: [409, 'Email connection in use'],
  email_file_expired: [409, 'Email file expired'],
  email_not_resendable: [409, 'Email not resendable'],
  template_deleted: [410, 'Template deleted'],
  file_expired: [410, 'File expired'],
  link_expired: [410, 'Link expired'],
  payload_too_large: [413, 'Payload too large'],
  output_too_large: [413, 'Output too large'],
  unsupported_media_type: [415, 'Unsupported media type'],
  headers_too_large: [431, 'Request headers too large'],
  template_syntax_error: [422, 'Template syntax error'],
  template_runtime_error: [422, 'Template runtime error'],
  template_fuel_exhausted: [422, 'Template execution budget exhausted'],
  data_schema_mismatch: [422, 'Data does not match the template schema'],
  idempotency_key_reused: [422, 'Idempotency key reused'],
  url_not_allowed: [422, 'URL not allowed'],
  navigation_failed: [422, 'Navigation failed'],
  wait_timeout: [422, 'Wait condition timed out'],
  asset_fetch_failed: [422, 'Asset fetch failed'],
  data_url_fetch_failed: [422, 'Data URL fetch failed'],
  page_limit_exceeded: [422, 'Page limit exceeded'],
  attachment_failed: [422, 'Attachment failed'],
  invalid_pdf_source: [422, 'Invalid PDF source'],
  pdf_password_required: [422, 'PDF password required'],
  scene_invalid: [422, 'Scene invalid'],
  data_invalid: [422, 'Data invalid'],
  email_template_error: [422, 'Email template error'],
  email_needs_hosted_file: [422, 'Email needs a hosted file'],
  render_failed: [422, 'Render failed'],
  render_lost: [422, 'Render lost'],
  pdfua_validation_failed: [422, 'PDF/UA validation failed'],
  pdfa_conversion_failed: [422, 'PDF/A conversion failed'],
  einvoice_invalid: [422, 'E-invoice invalid'],
  einvoice_validation_failed: [422, 'E-invoice validation failed'],
  render_canceled: [422, 'Render canceled'],
  template_locked: [423, 'Template locked'],
  rate_limited: [429, 'Too many requests'],
  concurrency_limited: [429, 'Too many concurrent renders'],
  quota_exceeded: [429, 'Quota exceeded'],
  internal_error: [500, 'Internal error'],
  region_degraded: [503, 'Region degraded'],
  maintenance: [503, 'Maintenance'],
  service_unavailable: [503, 'Service unavailable'],
} as const satisfies Record<string, readonly [number, string]>

export type ProblemCode = keyof typeof PROBLEM_CODES

/**
 * The codes of the table that nothing answers yet, each with the open issue that brings its
 * case (decision 0081). problem-codes.test.ts fails when a code is neither thrown anywhere nor
 * listed here, and when a code listed here is thrown: the list only shrinks.
 */
export const RESERVED_PROBLEM_CODES: Partial<Record<ProblemCode, string>> = {
  email_connection_in_use: 'issue 20 (email delivery): deleting a connection rules still use',
  email_file_expired: 'issue 20 (email delivery): resending a send whose file is no longer hosted',
  email_not_resendable: 'issue 20 (email delivery): resending a send whose content was not kept',
  email_template_error: 'issue 20 (email delivery): an email rule field that cannot be parsed',
  item_files_expired: 'issue 21 (batches): retry-failed on a combine batch whose files are gone',
  zero_retention: 'issue 21 (batches): retry-failed on a zero-retention batch',
  quota_exceeded: 'issue 22 (signed links): a link that used its quota_total',
  referrer_not_allowed: 'issue 22 (signed links): a Referer outside allowed_referrers',
  maintenance:
    'issue 24 (packaging, probes and shutdown): the 503 an installation answers while the operator upgrades it',
  region_degraded:
    'issue 24 (packaging, a cluster): the 503 of an installation whose workers cannot keep up or are gone',
}

export function problemStatus(code: ProblemCode): number {
  return PROBLEM_CODES[code][0]
}

export function problemTitle(code: ProblemCode): string {
  return PROBLEM_CODES[code][1]
}

export function isProblemCode(value: string): value is ProblemCode {
  return Object.hasOwn(PROBLEM_CODES, value)
}
