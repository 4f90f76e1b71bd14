// vitest setup of the service tests: every fetch of a test goes through the contract check
// (test/support/contract.ts), so each answer the suite receives is validated against the document.
import { contractFetch } from './contract.ts';

globalThis.fetch = contractFetch(globalThis.fetch);
