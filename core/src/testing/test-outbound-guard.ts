import { OutboundGuard } from '../net/outbound-guard.ts'
import type { OutboundGuardApi } from '../sdk/define-plugin.ts'

/**
 * The kernel's real outbound guard (DESIGN.md §7) for a plugin's tests and benchmarks, so they
 * check what production checks: loopback, private and metadata addresses are refused unless
 * `networkAllow` lists them (the CIDRs of DOCSVC_NETWORK_ALLOW, e.g. `127.0.0.1/32` for a
 * test's local server).
 */
export function testOutboundGuard(networkAllow: string[] = []): OutboundGuardApi {
  return new OutboundGuard(networkAllow)
}
