// npm install leaves out of package-lock.json the platform packages of msgpackr-extract (an optional
// dependency of bullmq's msgpackr) that this workplace's registry does not serve, and npm ci then
// refuses the lockfile. They are optional packages for other platforms, never fetched on Linux: this
// adds their entries (name, version, os, cpu) so that npm ci accepts the lockfile. Idempotent; run
// after any npm install that rewrites the lockfile (.ci/run runs it before npm ci).
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
const parent = packages['node_modules/msgpackr-extract'];
if (parent?.optionalDependencies) {
  let added = 0;
  for (const [name, version] of Object.entries(parent.optionalDependencies)) {
    const key = `node_modules/${name}`;
    if (packages[key]) continue;
    const [, os, cpu] = /msgpackr-extract-(\w+)-(\w+)$/.exec(name) ?? [];
    if (!os || !cpu) continue;
    packages[key] = { version, cpu: [cpu], license: 'MIT', optional: true, os: [os] };
    added++;
  }
  if (added > 0) {
    lock.packages = Object.fromEntries(Object.entries(packages).sort(([p], [q]) => (p === '' ? -1 : q === '' ? 1 : p < q ? -1 : p > q ? 1 : 0)));
    writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
    process.stderr.write(`package-lock.json: added ${added} optional platform entries of msgpackr-extract\n`);
  }
}
