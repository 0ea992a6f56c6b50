/** finctl policy show | set and finctl approvals list | show | approve | reject: the second pair of eyes (docs/people.md). */
import type { Command } from 'commander'
import type { Runner } from '../../src/cli/runner.js'
import { registerApprove } from './approve.js'
import { registerList } from './list.js'
import { registerPolicySet, registerPolicyShow } from './policy.js'
import { registerReject } from './reject.js'
import { registerShow } from './show.js'

export function registerApprovals(program: Command, run: Runner): void {
  const policy = program.command('policy').description('the approval policy: which steps wait for a second person')
  registerPolicyShow(policy, run)
  registerPolicySet(policy, run)
  const approvals = program.command('approvals').description('proposals waiting for approval: list, show, approve, reject')
  registerList(approvals, run)
  registerShow(approvals, run)
  registerApprove(approvals, run)
  registerReject(approvals, run)
}
