/// <reference types="node" />
// A test of the sources themselves: it reads them from disk, in Node under vitest.
/* eslint-disable no-restricted-imports -- the package stays runtime-neutral; this test runs in Node */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Issue 24 item 4: every Japanese text the domain package holds is in messages/ (ADR 0086).
// Outside it, a string or template literal with Japanese in it fails this test, unless it is
// data rather than a text to show (the prefectures' names, an example in the API document):
// such a line, or the line above it, carries a `// ja-data:` comment that says why.

const SRC = path.resolve(import.meta.dirname, '..');
const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;
const MARK = '// ja-data:';
/** Whole files of data: the regions' prefectures and provinces as Google's addresses spell them. */
const DATA_FILES = new Set(['store-lookups/regions.ts']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The Japanese string and template literals of one file that are not marked as data. */
function unmarkedJapanese(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n');
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const literal =
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node);
    if (literal && JAPANESE.test(node.text)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const marked =
        (lines[line] ?? '').includes(MARK) || (lines[line - 1] ?? '').trim().startsWith(MARK);
      if (!marked) found.push(`${file}:${line + 1}: ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the domain text catalog', () => {
  it('holds every Japanese text of the package: none is written outside messages/', () => {
    const outside = sourceFiles(SRC)
      .map((f) => path.relative(SRC, f).split(path.sep).join('/'))
      .filter((rel) => !rel.startsWith('messages/') && !DATA_FILES.has(rel));
    expect(outside.length).toBeGreaterThan(40);
    const found = outside.flatMap((rel) =>
      unmarkedJapanese(rel, fs.readFileSync(path.join(SRC, rel), 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('finds a Japanese literal, in a string or a template, and lets a marked line pass', () => {
    const file = 'probe.ts';
    const probe = [
      "export const a = 'ok';",
      "export const b = { message: '保存しました。' };",
      'export const c = (n: number) => `${n}件まで`;',
      "export const d = '東京都'; // ja-data: a prefecture's name",
      '// ja-data: an example in the API document',
      "export const e = 'Prefecture: 東京都';",
      '// Comments in Japanese are not texts: 保存',
    ].join('\n');
    expect(unmarkedJapanese(file, probe).map((f) => f.split(': ')[0])).toEqual([
      `${file}:2`,
      `${file}:3`,
    ]);
  });
});
