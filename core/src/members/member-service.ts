import type { Kysely } from 'kysely'
import { nowIso } from '../db/json-columns.ts'
import type { Database } from '../db/schema.ts'
import { newId } from '../kernel/ids.ts'
import { ProblemError, validationProblem } from '../kernel/problem-error.ts'
import type { Workspace } from '../workspaces/workspace.ts'
import type { WorkspacePlanChange, WorkspaceService } from '../workspaces/workspace-service.ts'
import { FREE_PLAN_ID, type FreeWorkspaceLimit } from './free-workspace-limit.ts'
import { MEMBER_ROLES, type Member, type MemberRole } from './member.ts'
import type { MemberRepository } from './member-repository.ts'
import type { VerificationLinks } from './verification-links.ts'
import type { VerificationMailer } from './verification-mailer.ts'

/** SPEC 5's live rendering needs a verified address: the owner's (docs/decisions/0090). */
const ACCOUNTABLE_ROLE: MemberRole = 'owner'
/** RFC 5321's longest address; the shape check is deliberately loose (the link proves the rest) */
const MAX_EMAIL_LENGTH = 254
const EMAIL = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>".]{2,}$/

/** A verification link as the operator gets it: to pass on, unless the service mailed it. */
export interface VerificationLinkView {
  url: string
  expires_at: string
  /** true when the installation's SMTP server took the mail */
  mailed: boolean
  /** why the configured SMTP server did not take it (the link works all the same) */
  mail_error?: string
}

export interface AddMemberInput {
  workspaceId: string
  email: string
  /** default: owner for a workspace without one, else developer */
  role?: MemberRole
  /** the operator vouches for the address (test kit): no link is issued */
  verified?: boolean
}

export class MemberService {
  readonly #members: MemberRepository
  readonly #workspaces: Pick<WorkspaceService, 'get'>
  readonly #links: VerificationLinks
  readonly #mailer: VerificationMailer
  readonly #limit: FreeWorkspaceLimit

  constructor(deps: {
    memberRepository: MemberRepository
    workspaceService: Pick<WorkspaceService, 'get'>
    verificationLinks: VerificationLinks
    verificationMailer: VerificationMailer
    freeWorkspaceLimit: FreeWorkspaceLimit
  }) {
    this.#members = deps.memberRepository
    this.#workspaces = deps.workspaceService
    this.#links = deps.verificationLinks
    this.#mailer = deps.verificationMailer
    this.#limit = deps.freeWorkspaceLimit
  }

  /**
   * Adds a member and, unless vouched for, issues (and mails, with SMTP) its verification link.
   * An owner of a Free workspace is refused with 402 `free_workspace_limit` when the address
   * owns two Free workspaces already (decision 0099).
   */
  async add(input: AddMemberInput): Promise<{ member: Member; verification: VerificationLinkView | null }> {
    await this.#workspaces.get(input.workspaceId)
    const email = memberEmail(input.email)
    const { ws, member } = await this.#limit.transaction(async (trx) => {
      // the workspace row first: a plan change of this workspace waits, or is waited for
      await this.#limit.lock(trx, { workspaceId: input.workspaceId, emails: [email] })
      const ws = await this.#workspaces.get(input.workspaceId, trx)
      return { ws, member: await this.#insert(trx, ws, email, input) }
    })
    return { member, verification: await this.#verificationOf(ws, member) }
  }

  /**
   * A new workspace's owner, stored with the workspace (`store`, given the transaction) or not at
   * all (decisions 0095, 0099): the limit is checked before either is stored.
   */
  async addWithWorkspace(
    email: string,
    ws: Workspace,
    store: (db: Kysely<Database>) => Promise<void>,
  ): Promise<{ member: Member; verification: VerificationLinkView | null }> {
    const address = memberEmail(email)
    const member = await this.#limit.transaction(async (trx) => {
      await this.#limit.lock(trx, { emails: [address] })
      return this.#insert(trx, ws, address, { role: ACCOUNTABLE_ROLE }, store)
    })
    return { member, verification: await this.#verificationOf(ws, member) }
  }

  /**
   * The members feature's `WorkspacePlanChange`: a move to Free checks each owner of the
   * workspace against the free workspace limit before `write` stores the plan, in one
   * transaction holding the workspace's and the owners' lock rows (decision 0099).
   */
  readonly changePlan: WorkspacePlanChange = (workspaceId, planId, write) =>
    this.#limit.transaction(async (trx) => {
      if (planId === FREE_PLAN_ID) {
        await this.#limit.lock(trx, { workspaceId })
        const ws = await this.#workspaces.get(workspaceId, trx)
        // Free to Free changes nothing the limit counts
        if (ws.plan_id !== FREE_PLAN_ID) {
          const owners = (await this.#members.list(workspaceId, trx)).filter(
            (m) => m.role === ACCOUNTABLE_ROLE,
          )
          await this.#limit.lock(trx, { emails: owners.map((m) => m.email) })
          for (const owner of owners) await this.#limit.check(trx, owner.email, workspaceId)
        }
      }
      await write(trx)
    })

  /** Stores the member in the caller's transaction, after the role and the free workspace limit are checked. */
  async #insert(
    trx: Kysely<Database>,
    ws: Workspace,
    email: string,
    input: Pick<AddMemberInput, 'role' | 'verified'>,
    storeWorkspace?: (db: Kysely<Database>) => Promise<void>,
  ): Promise<Member> {
    if (input.role !== undefined && !MEMBER_ROLES.includes(input.role)) {
      throw validationProblem([
        { path: '/role', code: 'enum', message: `role must be one of ${MEMBER_ROLES.join(', ')}` },
      ])
    }
    const role =
      input.role ?? ((await this.#members.has(ws.id, ACCOUNTABLE_ROLE, false, trx)) ? 'developer' : 'owner')
    const at = nowIso()
    const member: Member = {
      id: newId('member'),
      workspace_id: ws.id,
      email,
      role,
      verified: input.verified === true,
      verified_at: input.verified === true ? at : null,
      created_at: at,
    }
    // checked before the insert; this workspace is left out of the count
    if (role === ACCOUNTABLE_ROLE && ws.plan_id === FREE_PLAN_ID) await this.#limit.check(trx, email, ws.id)
    await storeWorkspace?.(trx)
    if (!(await this.#members.insert(member, trx))) {
      throw new ProblemError('conflict', `${email} is already a member of workspace ${ws.id}.`)
    }
    return member
  }

  /** after the transaction: a link (and its mail) only for a member that was stored */
  #verificationOf(ws: Workspace, member: Member): Promise<VerificationLinkView | null> {
    return member.verified ? Promise.resolve(null) : this.#issueLink(ws, member)
  }

  async list(workspaceId: string): Promise<Member[]> {
    await this.#workspaces.get(workspaceId)
    return this.#members.list(workspaceId)
  }

  async get(workspaceId: string, memberId: string): Promise<Member> {
    await this.#workspaces.get(workspaceId)
    const member = await this.#members.get(memberId)
    if (!member || member.workspace_id !== workspaceId) {
      throw new ProblemError('not_found', `workspace ${workspaceId} has no member ${memberId}`)
    }
    return member
  }

  /**
   * Removes a member; an owner's removal is recorded with the workspace's plan, so the free
   * workspace limit counts that workspace for 30 days more (SPEC 7.3, decision 0099).
   */
  async remove(workspaceId: string, memberId: string): Promise<Member> {
    const member = await this.get(workspaceId, memberId)
    await this.#limit.transaction(async (trx) => {
      // the write first: on SQLite it takes the write lock before anything is read
      await this.#members.remove(member.id, trx)
      if (member.role === ACCOUNTABLE_ROLE) {
        const ws = await this.#workspaces.get(workspaceId, trx)
        await this.#limit.recordEnd(trx, { workspaceId, email: member.email, planId: ws.plan_id })
      }
    })
    return member
  }

  /** A new link for an unverified member; it replaces the earlier one (only the newest works). */
  async verificationLink(workspaceId: string, memberId: string): Promise<VerificationLinkView> {
    const member = await this.get(workspaceId, memberId)
    if (member.verified) {
      throw new ProblemError('conflict', `${member.email} was verified at ${member.verified_at}.`)
    }
    return this.#issueLink(await this.#workspaces.get(workspaceId), member)
  }

  /**
   * Opens a link: the member is verified once. 403 `invalid_signature` for a link we did not make,
   * 410 `link_expired` for an expired, used or replaced one, 404 when the member was removed.
   */
  async verify(token: string): Promise<Member> {
    return this.#openLink(token, (member, nonce) => this.#members.verifyWithNonce(member.id, nonce, nowIso()))
  }

  /** The member a link would verify, with the same refusals as `verify`; the link stays usable. */
  async checkLink(token: string): Promise<Member> {
    return this.#openLink(token, (member, nonce) => this.#members.hasNonce(member.id, nonce))
  }

  async #openLink(token: string, use: (member: Member, nonce: string) => Promise<boolean>): Promise<Member> {
    const claims = this.#links.read(token)
    const member = await this.#members.get(claims.memberId)
    if (!member) throw new ProblemError('not_found', 'The member this link verifies was removed.')
    if (!(await use(member, claims.nonce))) {
      throw new ProblemError(
        'link_expired',
        member.verified
          ? `This link was used already: ${member.email} is verified.`
          : 'A newer verification link replaced this one; open the newest.',
      )
    }
    return this.get(member.workspace_id, member.id)
  }

  /**
   * Whether `email` is the verified address of a member of the workspace: what SPEC 2.9 and 4.8
   * ask of `test_recipient`, a connection test's `send_to` and a rule test's `to` (the email
   * issue calls it). Compared case-insensitively, as addresses are stored.
   */
  async isVerifiedAddress(workspaceId: string, email: string): Promise<boolean> {
    const address = email.trim().toLowerCase()
    return (await this.#members.list(workspaceId)).some((m) => m.verified && m.email === address)
  }

  /**
   * SPEC 5 (test mode table) and 7.3: live rendering needs a verified email address, the
   * workspace owner's. Test renders never ask. Workspaces made before members existed, and the
   * first-run workspace, are exempt (docs/decisions/0090).
   */
  async requireVerifiedEmail(workspace: Pick<Workspace, 'id' | 'email_check_waived'>): Promise<void> {
    if (workspace.email_check_waived) return
    if (await this.hasVerifiedOwner(workspace.id)) return
    throw new ProblemError(
      'email_not_verified',
      'Live rendering needs a verified email address: the workspace owner has not opened their verification link yet; test keys work meanwhile.',
    )
  }

  /** Whether the workspace has the verified owner that live rendering needs without an exemption. */
  hasVerifiedOwner(workspaceId: string): Promise<boolean> {
    return this.#members.has(workspaceId, ACCOUNTABLE_ROLE, true)
  }

  async #issueLink(ws: Workspace, member: Member): Promise<VerificationLinkView> {
    const link = this.#links.issue(member.id)
    await this.#members.setNonce(member.id, link.nonce, nowIso())
    const view = { url: link.url, expires_at: link.expires_at }
    try {
      const mailed = await this.#mailer.send({
        to: member.email,
        workspaceName: ws.name,
        url: link.url,
        expiresAt: link.expires_at,
      })
      return { ...view, mailed }
    } catch (err) {
      // the member and its link exist: the operator passes the link on by hand instead
      return { ...view, mailed: false, mail_error: (err as Error).message }
    }
  }
}

/**
 * A member's address as stored (trimmed, lower case), or a validation_error at `path`, the field
 * the caller was sent it in.
 */
export function memberEmail(text: string, path = '/email'): string {
  const email = text.trim().toLowerCase()
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) {
    throw validationProblem([
      { path, code: 'format', message: `${JSON.stringify(text)} is not an email address` },
    ])
  }
  return email
}
