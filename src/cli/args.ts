// The one argument reader of every `npm run` tool: node's parseArgs plus the manners a user can guess.
// `--help` (or `-h`) prints the tool's usage on stdout and exits 0 before the tool does anything; an
// unknown option, a missing value or a stray word prints one line on stderr and exits 2 (never a stack
// trace); a tool's own refusal (`usageError`) does the same. Every tool reads its arguments first, so
// nothing is read or written before they have been accepted.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Exit code of a command line the tool does not accept (as sh, getopt and node's own CLI use it). */
export const USAGE_EXIT_CODE = 2;

type Options = NonNullable<ParseArgsConfig['options']>;

export interface CommandLine<O extends Options, P extends boolean> {
  /** The tool as a user types it, e.g. `npm run bench`: the one-line errors start with it. */
  command: string;
  /** The whole text `--help` prints: synopsis, then the options. */
  usage: string;
  options: O;
  /** Whether words that are not options are accepted (subcommands, file names); default false. */
  allowPositionals?: P;
  /** The arguments; default process.argv without node and the script. */
  args?: readonly string[];
}

type Parsed<O extends Options, P extends boolean> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: P; strict: true }>>;

/** What a command line comes to: the parsed values, or the answer the tool gives instead (and its exit code). */
export type CommandLineOutcome<O extends Options, P extends boolean> =
  | ({ ok: true } & Parsed<O, P>)
  | { ok: false; exitCode: number; stdout: string; stderr: string };

/** The one line of a refused command line. */
export function usageLine(command: string, message: string): string {
  const sentence = message.replace(/\s+/g, ' ').trim();
  return `${command}: ${sentence}${/[.!?]$/.test(sentence) ? '' : '.'} See '${command} -- --help'.\n`;
}

/** Parse without exiting: for tools whose main function returns an exit code (and is tested so). */
export function parseCommandLine<O extends Options, P extends boolean = false>(spec: CommandLine<O, P>): CommandLineOutcome<O, P> {
  const args = [...(spec.args ?? process.argv.slice(2))];
  // --help wins over everything else on the line, even over a mistake beside it.
  if (args.includes('--help') || args.includes('-h')) return { ok: false, exitCode: 0, stdout: `${spec.usage.trimEnd()}\n`, stderr: '' };
  try {
    const parsed = parseArgs({ args, options: spec.options, allowPositionals: (spec.allowPositionals ?? false) as P, strict: true });
    return { ok: true, ...parsed };
  } catch (error) {
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      // node's sentences go on with a hint about `--` that does not fit an npm script; keep the first.
      return { ok: false, exitCode: USAGE_EXIT_CODE, stdout: '', stderr: usageLine(spec.command, error.message.split('. ')[0]!) };
    }
    throw error;
  }
}

/** Parse, or answer --help (exit 0) or a mistake (exit 2) and end the process. */
export function readCommandLine<O extends Options, P extends boolean = false>(spec: CommandLine<O, P>): Parsed<O, P> {
  const outcome = parseCommandLine(spec);
  if (outcome.ok) return outcome;
  process.stdout.write(outcome.stdout);
  process.stderr.write(outcome.stderr);
  process.exit(outcome.exitCode);
}

/** A command line a tool's part refuses, thrown where exiting is not its call; the tool answers it with usageError. */
export class UsageRefusal extends Error {}

/** Refuse the command line with one sentence (exit 2), e.g. a value out of range. */
export function usageError(command: string, message: string): never {
  process.stderr.write(usageLine(command, message));
  process.exit(USAGE_EXIT_CODE);
}
