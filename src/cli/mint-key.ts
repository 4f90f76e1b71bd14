// `npm run key -- <environment>`: mint an API key for one environment. Prints the key (for the client,
// shown only now) and the line that goes into that environment's API_KEYS_FILE (a hash, so the server
// never stores the key itself).
import { pathToFileURL } from 'node:url';
import { APP_ENVIRONMENTS, apiKeyHashLine, mintApiKey, type AppEnv } from '../security/api-keys.ts';
import { parseCommandLine, USAGE_EXIT_CODE } from './args.ts';

const COMMAND = 'npm run key';

interface Output { out: (text: string) => void; err: (text: string) => void }

/** Runs the command for `args` (without node and script); returns the exit code. */
export function runMintKey(args: readonly string[], output: Output): number {
  const line = parseCommandLine({
    command: COMMAND,
    usage: `Usage: npm run key -- <environment>

Mints an API key for one environment (${APP_ENVIRONMENTS.join(', ')}): prints the key, shown only now,
and the line for that environment's API_KEYS_FILE (its hash). Writes no file.
  --help                  this text`,
    options: {},
    allowPositionals: true,
    args,
  });
  if (!line.ok) {
    output.out(line.stdout);
    output.err(line.stderr);
    return line.exitCode;
  }
  const env = line.positionals[0];
  if (line.positionals.length !== 1 || !(APP_ENVIRONMENTS as readonly string[]).includes(env!)) {
    output.err(`Usage: npm run key -- <environment>, where <environment> is one of ${APP_ENVIRONMENTS.join(', ')}${env === undefined ? '' : ` (got '${line.positionals.join(' ')}')`}.\n`);
    return USAGE_EXIT_CODE;
  }
  const key = mintApiKey(env as AppEnv);
  output.out([
    `API key for ${env} (give it to the client now; it is not stored anywhere):`,
    `  ${key}`,
    `Line for the ${env} API_KEYS_FILE (the server keeps only this hash):`,
    `  ${apiKeyHashLine(key)}`,
    '',
  ].join('\n'));
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = runMintKey(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}
