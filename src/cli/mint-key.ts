// `npm run key -- <environment>`: mint an API key for one environment. Prints the key (for the client,
// shown only now) and the line that goes into that environment's API_KEYS_FILE (a hash, so the server
// never stores the key itself).
import { pathToFileURL } from 'node:url';
import { APP_ENVIRONMENTS, apiKeyHashLine, mintApiKey, type AppEnv } from '../security/api-keys.ts';

interface Output { out: (text: string) => void; err: (text: string) => void }

/** Runs the command for `args` (without node and script); returns the exit code. */
export function runMintKey(args: readonly string[], output: Output): number {
  const env = args[0];
  if (args.length !== 1 || !(APP_ENVIRONMENTS as readonly string[]).includes(env!)) {
    output.err(`Usage: npm run key -- <environment>, where <environment> is one of ${APP_ENVIRONMENTS.join(', ')}${env === undefined ? '' : ` (got '${args.join(' ')}')`}.\n`);
    return 2;
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
