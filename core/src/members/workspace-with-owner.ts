import type { Workspace } from '../workspaces/workspace.ts'
import type { CreateWorkspaceInput, WorkspaceService } from '../workspaces/workspace-service.ts'
import type { Member } from './member.ts'
import { type MemberService, memberEmail, type VerificationLinkView } from './member-service.ts'

export interface CreateWorkspaceWithOwnerInput extends CreateWorkspaceInput {
  /** the owner's address: added as the `owner` member, unverified, with a verification link */
  ownerEmail?: string | undefined
}

/** A new workspace as the operator gets it back (admin API, `docsvc workspace create`). */
export type WorkspaceWithOwner = Workspace & {
  /** the owner member made with the workspace, and the link to pass on; null without an address */
  owner: (Member & { verification: VerificationLinkView | null }) | null
}

/**
 * Creates a workspace and, given an address, its owner (docs/decisions/0095). The address is
 * checked before anything is stored, so a bad one leaves no workspace behind. The owner is
 * added as any operator-added member is (decision 0090): unverified, with a one-time link that
 * the service mails when SMTP is configured; live renders wait until the owner opens it. On a
 * Free workspace the owner is checked against the free workspace limit (decision 0099).
 */
export async function createWorkspaceWithOwner(
  deps: {
    workspaceService: Pick<WorkspaceService, 'create' | 'prepare' | 'store'>
    memberService: Pick<MemberService, 'addWithWorkspace'>
  },
  input: CreateWorkspaceWithOwnerInput,
): Promise<WorkspaceWithOwner> {
  const { ownerEmail, ...workspace } = input
  const email = ownerEmail === undefined ? undefined : memberEmail(ownerEmail, '/owner_email')
  if (email === undefined) return { ...(await deps.workspaceService.create(workspace)), owner: null }
  const ws = await deps.workspaceService.prepare(workspace)
  // one transaction: an owner refused by the free workspace limit (402) leaves no workspace
  const owner = await deps.memberService.addWithWorkspace(email, ws, (db) =>
    deps.workspaceService.store(ws, db),
  )
  return { ...ws, owner: { ...owner.member, verification: owner.verification } }
}
