import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The viewer of the API reference (/developers/api, issue 21): Scalar's standalone bundle, copied
// from node_modules into the build by scripts/build.ts under a name carrying its version, so the
// year-long cache of /dist/ assets never serves an old one after an upgrade.

const PACKAGE = 'node_modules/@scalar/api-reference';

const version = (root: string): string =>
  (JSON.parse(readFileSync(join(root, PACKAGE, 'package.json'), 'utf8')) as { version: string }).version;

/** Where the bundle is in node_modules. */
export const viewerSource = (root: string) => join(root, PACKAGE, 'dist/browser/standalone.js');

/** Its public path in the build (under build/client). */
export const viewerAsset = (root: string = process.cwd()) => `/dist/vendor/scalar-api-reference-${version(root)}.js`;
