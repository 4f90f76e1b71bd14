// The one argument reader of every `npm run` tool: node's parseArgs plus the manners a user can guess.
// `--help` (or `-h`) prints the tool's usage on stdout and exits 0 before the tool does anything; an
// unknown option, a missing value or a stray word prints one line on stderr and exits 2 (never a stack
// trace); a tool's own refusal (`usageError`) does the same. Nothing is read or written before the
// arguments have been accepted, since every tool calls this first.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Exit code of a command line the tool does not accept (as sh, getopt and node's own CLI use it). */
export const USAGE_EXIT_CODE = 2;

type Options = NonNullable<ParseArgsConfig['options']>;

export interface CommandLine<O extends Options, P extends boolean> {
  /** The tool's name as a user types it, e.g. `npm run bench --`. */
  command: string;
  /** The whole usage text `--help` prints: synopsis, then one line per option. */
  usage: string;
  options: O;
  /** Whether words that are not options are accepted (subcommands, file names); default false. */
  allowPositionals?: P;
  /** The arguments; default process.argv without node and the script. */
  args?: readonly string[];
}

/** Print one line naming the mistake and where to look, and end the process with exit code 2. */
export function usageError(command: string, message: string): never {
  const sentence = message.replace(/\s+/g, ' ').trim();
  process.stderr.write(`${command}: ${sentence}${/[.!?]$/.test(sentence) ? '' : '.'} See '${command} --help'.\n`);
  process.exit(USAGE_EXIT_CODE);
}

/** Parse the command line, or answer --help (exit 0) or a mistake (exit 2) and end the process. */
export function readCommandLine<O extends Options, P extends boolean = false>(spec: CommandLine<O, P>) {
  const args = [...(spec.args ?? process.argv.slice(2))];
  // --help wins over everything else on the line, even over a mistake beside it.
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${spec.usage.trimEnd()}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({ args, options: spec.options, allowPositionals: spec.allowPositionals ?? false, strict: true } as {
      args: string[]; options: O; allowPositionals: P; strict: true;
    });
  } catch (error) {
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      // node's sentences end with a hint to use `--` that does not apply to an npm script; keep the first.
      usageError(spec.command, error.message.split('. ')[0]!);
    }
    throw error;
  }
}
