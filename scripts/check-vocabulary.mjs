#!/usr/bin/env node
// The project speaks of itself only: code, comments, docs and file names say what is and why, not
// which milestone or ticket brought it. `npm run lint:vocabulary` fails, with file:line, on:
//  1. a milestone name: "stop" followed by a number, apart or joined by a hyphen or an underscore
//     or glued ("stop N", "stop-N", "stopN", any letter case), where no letter comes just before
//     "stop" ("nonstop" is a word of its own; "x_stop" and "x-stop" are still checked);
//  2. a wave: "wave" followed by a digit, in the same forms, anywhere (also inside a longer name,
//     as a folder named after a wave would have it);
//  3. an issue number: "#N" standing alone in prose or a comment (after a space, a bracket or at
//     the start of a line, and followed by a space, punctuation or the end of the line; a CSS
//     colour such as "color: #333" is not one), or "issue N", "issue #N", "ticket N".
// The rule is the word, not its meaning: "stop" with a count after it is refused too, so write the
// count in words or put a word between ("stop all N instances"). The same patterns apply to every
// file and folder name. Dated diaries ("on <date> we…") are left to review: no pattern tells them
// from a date that belongs in the text.
//
//   node scripts/check-vocabulary.mjs             the files git tracks in this repository
//   node scripts/check-vocabulary.mjs <path…>     these files, the files under these folders, and
//                                                 the files git tracks in those that are repositories
// Skipped: package-lock.json (package names are not ours) and binary files (a NUL byte in the
// first 8 000 bytes). Exit 1 when anything is found.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const RULES = [
  { pattern: /(?<![a-z])stop[-_ ]?\d+/gi, says: 'a milestone name' },
  { pattern: /wave[-_ ]?\d/gi, says: 'a milestone name' },
  { pattern: /(?<=^|[\s([{])#\d{1,5}(?=$|[\s:;,.)\]}!?])/g, says: 'an issue number', unless: isCssColour },
  { pattern: /\b(?:issue|ticket)s?\s*#?\d+\b/gi, says: 'an issue number' },
];
const SKIPPED = new Set(['package-lock.json']);

/** `border: 1px solid #888;`: a colour in a CSS declaration, not an issue number. */
function isCssColour(line, index, match) {
  return /^#(?:\d{3}|\d{4}|\d{6}|\d{8})$/.test(match) && /[a-z-]+\s*:[^;{}]*$/i.test(line.slice(0, index));
}

/** What a text holds that the rules refuse, as { line, found, says }. */
export function findings(text) {
  const found = [];
  text.split('\n').forEach((line, i) => {
    for (const rule of RULES) {
      for (const match of line.matchAll(rule.pattern)) {
        if (rule.unless?.(line, match.index, match[0])) continue;
        found.push({ line: i + 1, found: match[0], says: rule.says });
      }
    }
  });
  return found;
}

const isBinary = (buffer) => buffer.subarray(0, 8000).includes(0);

/** Every file under a folder (not .git or node_modules), as paths joined to it. */
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === '.git' || entry.name === 'node_modules') return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });

/** The files to check, each as { path (read from), name (as reported and checked) }. */
function filesToCheck(args) {
  if (args.length === 0) return tracked(join(dirname(fileURLToPath(import.meta.url)), '..'));
  return args.flatMap((arg) => {
    if (!statSync(arg).isDirectory()) return [{ path: arg, name: arg }];
    if (existsSync(join(arg, '.git'))) return tracked(arg);
    return walk(arg).map((path) => ({ path, name: relative(arg, path) }));
  });
}

/** The files git tracks in a repository. */
function tracked(root) {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter(Boolean)
    .map((name) => ({ path: join(root, name), name }));
}

export function check(args) {
  const problems = [];
  const files = filesToCheck(args).filter(({ name }) => !SKIPPED.has(basename(name)));
  const named = new Set(); // each file and folder name once, however many files a folder holds
  for (const { path, name } of files) {
    const parts = name.split(/[\\/]/);
    parts.forEach((part, i) => {
      const prefix = parts.slice(0, i + 1).join('/');
      if (named.has(prefix)) return;
      named.add(prefix);
      for (const { found, says } of findings(part)) problems.push(`${prefix}: the name holds "${found}" (${says})`);
    });
    if (!existsSync(path) || statSync(path).isDirectory()) continue; // deleted in the work tree, or a submodule
    const buffer = readFileSync(path);
    if (isBinary(buffer)) continue;
    for (const { line, found, says } of findings(buffer.toString('utf8'))) problems.push(`${name}:${line}: "${found}" (${says})`);
  }
  return { problems, files: files.length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { problems, files } = check(process.argv.slice(2));
  if (problems.length > 0) {
    console.error(
      `Vocabulary: ${problems.length} problem(s). Say what the code does and why, without milestone names or issue numbers` +
        ` (scripts/check-vocabulary.mjs says the rule):\n  ${problems.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log(`Vocabulary: no milestone names or issue numbers in ${files} files.`);
}
