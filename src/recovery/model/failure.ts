// The one vocabulary of failures a simulation's caller may see. Solver outcomes (infeasible, time
// limit) are not failures: they are values in the result. These are the rest: the caller asked for a
// flight that is not there, or the runtime could not run the simulation. The solver adapter, the
// runtime and the use case all throw RecoveryError; the HTTP layer maps `failure.kind` to a status in
// one place (src/http/errors.ts). `failure` is plain data, so it crosses a thread boundary as it is.

export type RecoveryFailure =
  /** A disruption names a flight or an aircraft that is not the airline's, or an airport the schedule does not have. */
  | { kind: 'not_found'; subject: 'flight' | 'aircraft' | 'airport'; id: string; airline: string }
  /** No solver capacity now (queue full, or waited too long for a worker): retry later. */
  | { kind: 'busy'; message: string }
  /** A solver worker or the simulation thread died during the simulation (it is replaced). */
  | { kind: 'crashed'; message: string }
  /** The caller's signal aborted the simulation (e.g. the client went away). */
  | { kind: 'aborted'; message: string }
  /** The simulation was not answered within the runtime's safety deadline. */
  | { kind: 'deadline'; message: string };

export class RecoveryError extends Error {
  constructor(readonly failure: RecoveryFailure) {
    super(failure.kind === 'not_found' ? `${failure.subject} '${failure.id}' not found for airline '${failure.airline}'` : failure.message);
  }
}

/** The failure `error` carries, or null when it is not a RecoveryError (a programmer error). */
export function recoveryFailureOf(error: unknown): RecoveryFailure | null {
  return error instanceof RecoveryError ? error.failure : null;
}
