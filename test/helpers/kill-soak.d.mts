import type { ChildProcess } from 'node:child_process';

export declare const BIN: string;

export interface Service {
  url: string;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A template as the service acknowledged it (only `id` and `name` are read here). */
export interface AcknowledgedTemplate {
  id: string;
  name: string;
  [field: string]: unknown;
}

export interface RoundReport {
  round: number;
  killAfter: number;
  acknowledged: number;
  unanswered: number;
  lost: number;
  changed: number;
  strays: number;
}

export interface SoakSummary {
  db: string;
  rounds: RoundReport[];
  /** Templates that ever got a 201 (bursts and one create after each restart). */
  acknowledged: number;
  lost: Array<{ round: number; id: string; name: string; status: number }>;
  changed: Array<{ round: number; id: string; acknowledged: AcknowledgedTemplate; stored: unknown }>;
  /** Unacknowledged templates that are not one of the burst's creates. */
  strays: Array<{ round: number; id: string; name: unknown }>;
  failures: string[];
}

export declare function startService(db: string): Promise<Service>;
export declare function admin<T = unknown>(db: string, ...args: string[]): Promise<T>;
export declare function burstUntilKilled(options: {
  service: Service;
  key: string;
  bodies: Array<Record<string, unknown>>;
  round: number;
  killAfter: number;
}): Promise<{ acknowledged: AcknowledgedTemplate[]; unanswered: number }>;
export declare function soakKill(options: {
  rounds: number;
  db?: string;
  killAfter?: (round: number) => number;
  log?: (line: string) => void;
}): Promise<SoakSummary>;
