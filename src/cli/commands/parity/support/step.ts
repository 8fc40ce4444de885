// The types every part of a parity run shares: a step, what its request is built from, what a
// service answered and what is kept of it. A leaf: it imports nothing of parity's.
import type { Method, OperationId } from '../../../../contract/endpoints.js';

/**
 * Which key a request carries: the account's, a sub-user's of the same account, another
 * account's, none, or one the service never issued.
 */
export type KeyUse = 'account' | 'subUser' | 'otherAccount' | 'none' | 'wrong';
/** The keys beside the account's that a run may be given (`--sub-user-key`, `--other-account-key`). */
export type OptionalKey = 'subUser' | 'otherAccount';

export interface StepRequest {
  method: Method;
  path: string;
  /** A list sends the parameter once per value (`limit=1&limit=2`). */
  query?: Record<string, string | number | readonly (string | number)[]>;
  body?: unknown;
  key?: KeyUse;
  ifNoneMatch?: string;
  /** The step or check it is sent for, as a finding about its answer names it. */
  label?: string;
}

/** What a service answered, as sent. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** An answer with what differs between any two runs taken out: fit to compare and to commit. */
export interface NormalisedAnswer {
  status: number;
  /** The headers the contract names, those present. */
  headers: Record<string, string>;
  body?: unknown;
}

/** Why a request was not sent, or its answer is no use: the step is not comparable. */
export interface Unanswered {
  unanswered: string;
}

/** What one service made of a step. */
export type StepOutcome = { answer: NormalisedAnswer } | Unanswered;

/** A template as a listing shows it: what a filter matches on. */
export interface ListedTemplate {
  id?: string;
  name: string;
  analysisType?: string;
  reportType?: string;
  reportCategory?: string;
}

/** A template this run created: its id, and the key that may delete it. */
export interface CreatedTemplate {
  id: string;
  key: KeyUse;
}

/** What one run of the scenario learns as it goes, and what the requests are built from. */
export interface ScenarioContext {
  /** This run's name prefix, on everything it creates. */
  prefix: string;
  /** Templates the account held before the run: taken from the totals, so totals compare. */
  before: readonly ListedTemplate[];
  /** Their ids: never taken for one this run created, never deleted. */
  heldIds: ReadonlySet<string>;
  /** The answers of the steps later steps are built from, by step name; no other answer is kept. */
  answers: Map<string, Answer>;
  /** Templates this run created and has not deleted yet, by the label of the step that made them. */
  created: Map<string, CreatedTemplate>;
  /** The optional keys this service was given. */
  keys: ReadonlySet<OptionalKey>;
}

/** Where the specification itself (not serve) says otherwise than an answer. */
export interface SpecificationFinding {
  /** A stable name of the rule (`rate-limit.writes`, `paging.default-limit` …), for `--ignore`. */
  rule: string;
  expected: string;
  found: string;
}

/** Whose answer a finding is about. */
export type Side = 'target' | 'serve';

export interface Finding extends SpecificationFinding {
  side: Side;
  /** The step, or the check over several requests (`survey.listQueueRuns`). */
  step: string;
  operation: OperationId;
}

export interface Step {
  /** `operationId` or `operationId.case`: unique, and the name of its file in a recording. */
  name: string;
  operation: OperationId;
  /** The request, or undefined when an earlier answer it needs is missing (not comparable). */
  request(context: ScenarioContext): StepRequest | undefined;
  /** Steps whose answers this one's request is built from (run first by `--only`, and kept). */
  needs?: readonly string[];
  /** Sent only when the run was given this key; otherwise the report says what was not checked. */
  requires?: OptionalKey;
  /** A 2xx answer's `id` is a template this run created, known by this label until deleted. */
  creates?: string;
  /** A 2xx answer means the template with this label is gone. */
  deletes?: string;
  /** Body paths compared by value, besides the error code, issue paths and formula verdicts. */
  values?: readonly string[];
  /** Body paths compared by value only when both sides have one: what a side may be unable to tell. */
  valuesWhenBoth?: readonly string[];
  /** A value path naming the items of a page: when it differs, the items' fields are not compared too. */
  identity?: string;
  /**
   * The items are what the account held before the run (presets, queues, runs, analyses), not
   * what the scenario made: each field and type the target sends must be one serve sends; a
   * field the target's items lack is the contract check's to judge, not a difference.
   */
  held?: true;
  /** The body's `data` comes in no promised order: compared sorted. */
  unordered?: true;
  /** What of the body is compared, when not all of it (given the raw body). */
  project?(body: unknown, context: ScenarioContext): unknown;
  /** What the specification says of this answer (raw), checked on both sides. */
  specification?(answer: Answer, context: ScenarioContext): SpecificationFinding[];
}
