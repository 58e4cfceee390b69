// Bundles the compiled server (dist/server/main.js) into dist/server.mjs, the file `npm start` runs.
//
// Packages stay in node_modules, loaded as they are, except the ones named below: Kysely is some
// 280 ES modules, and resolving and linking them one by one cost a starting server ~200 ms of its
// ~1 s to the first answer (bench/run.mjs's cold start); in the bundle they are one file, with
// only the parts the server uses. Candidates must be pure JavaScript that nothing outside the
// bundle also imports: express stays outside, because express-openapi-validator requires it too
// and would load a second copy.
import { build } from 'esbuild';

const BUNDLED = ['kysely'];
const bundled = (path) => BUNDLED.some((name) => path === name || path.startsWith(`${name}/`));

await build({
  entryPoints: ['dist/server/main.js'],
  outfile: 'dist/server.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'warning',
  plugins: [
    {
      name: 'packages-outside-but-named',
      setup(b) {
        // A bare specifier (not relative, not absolute) is a package: outside unless named.
        b.onResolve({ filter: /^[^./]/ }, (args) => (bundled(args.path) ? undefined : { path: args.path, external: true }));
      },
    },
  ],
});
