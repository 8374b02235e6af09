// Every check the suite runs, in the order it runs them for an operation.
import { headerCase, missingKey, noKeyNeeded, permission, unknownKey } from './auth.js';
import type { Check } from './context.js';
import { alertFires, baselineMoves, webhookDelivered } from './events.js';
import { runExecutes } from './execution.js';
import { happyPath, happyPathMaximal } from './happy.js';
import { otherOrganization, otherOrganizationList, unknownId } from './isolation.js';
import { badPathIds, bodyInside, bodyOutside, headerBounds, jsonContent, malformedJson, queryBounds } from './limits.js';
import { checks as protocolAliases } from './protocol-aliases.js';
import { checks as protocolDispatch } from './protocol-dispatch.js';
import { checks as protocolDuplicate } from './protocol-duplicate.js';
import { checks as protocolFields } from './protocol-fields.js';
import { checks as protocolListQuery } from './protocol-list-query.js';
import { checks as protocolLists } from './protocol-lists.js';
import { checks as protocolRecords } from './protocol-records.js';
import { checks as protocolReferences } from './protocol-references.js';
import { checks as protocolRequests } from './protocol-requests.js';
import { checks as protocolVersions } from './protocol-versions.js';
import { checks as protocolWorkspaces } from './protocol-workspaces.js';
import { RULE_CHECKS } from './rules/index.js';
import { echo, exactlyOneOf, frozenLifecycle, normalization, nullRules, restoreRules, revertRules, softDelete, transition, uniqueness, versionHistory, wholeSet } from './semantics.js';

export type { Check, CheckContext } from './context.js';

export const CHECKS: readonly Check[] = [
  missingKey,
  unknownKey,
  headerCase,
  permission,
  noKeyNeeded,
  happyPath,
  happyPathMaximal,
  bodyInside,
  bodyOutside,
  jsonContent,
  malformedJson,
  badPathIds,
  queryBounds,
  headerBounds,
  unknownId,
  otherOrganization,
  otherOrganizationList,
  frozenLifecycle,
  transition,
  softDelete,
  versionHistory,
  restoreRules,
  revertRules,
  echo,
  normalization,
  uniqueness,
  wholeSet,
  nullRules,
  exactlyOneOf,
  alertFires,
  baselineMoves,
  webhookDelivered,
  runExecutes,
  ...protocolRequests,
  ...protocolLists,
  ...protocolWorkspaces,
  ...protocolRecords,
  ...protocolReferences,
  ...protocolVersions,
  ...protocolDuplicate,
  ...protocolFields,
  ...RULE_CHECKS,
  ...protocolDispatch,
  ...protocolListQuery,
  ...protocolAliases,
];
