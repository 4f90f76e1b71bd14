// vitest setup of the service tests: every fetch of a test goes through the contract check
// (test/support/contract.ts), so each answer the suite receives is validated against the document.
// The check is imported at the first answer, not here: a test file's vi.mock (e.g. of node:crypto)
// must apply to the service modules the check loads, as it does to those the test loads.
const original = globalThis.fetch;
let wrapped: typeof fetch | undefined;

globalThis.fetch = async (input, init) => {
  wrapped ??= (await import('./contract.ts')).contractFetch(original);
  return wrapped(input, init);
};
