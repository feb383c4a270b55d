import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDb, dbKinds, type TestDb } from './job-db';

/**
 * `src/db/types.ts` is written by hand (issue 24 item 3): this holds it to the schema that the
 * migrations make, on SQLite and (with TEST_DATABASE_URL) PostgreSQL. Each table of `Database`
 * exists with exactly its type's columns; a column the database lets be NULL is `| null` in its
 * type and the other way round; a `Generated<…>` column has a default (or is the row id).
 */
type TypedColumn = { nullable: boolean; generated: boolean };

/** The tables of `Database` in types.ts, each with its columns as the type declares them. */
function declaredTables(): Map<string, Map<string, TypedColumn>> {
  const file = path.join(__dirname, '../src/db/types.ts');
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const aliases = new Map<string, ts.TypeNode>();
  for (const s of source.statements)
    if (ts.isTypeAliasDeclaration(s)) aliases.set(s.name.text, s.type);
  /** The properties of a type literal, of an alias of one, or of an intersection of those. */
  const members = (node: ts.TypeNode | undefined): { name: string; type: string }[] => {
    if (!node) return [];
    if (ts.isTypeLiteralNode(node))
      return node.members.filter(ts.isPropertySignature).map((m) => ({
        name: (m.name as ts.Identifier).text,
        type: m.type?.getText(source) ?? '',
      }));
    if (ts.isIntersectionTypeNode(node)) return node.types.flatMap(members);
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName))
      return members(aliases.get(node.typeName.text));
    if (ts.isMappedTypeNode(node)) return mapped(node);
    throw new Error(`types.ts: cannot read the columns of ${node.getText(source)}`);
  };
  /** `{ [K in keyof A | 'b' as \`pre_${K}\`]: T }`: the keys of A and the literals, renamed. */
  const mapped = (node: ts.MappedTypeNode): { name: string; type: string }[] => {
    const keys = (t: ts.TypeNode | undefined): string[] => {
      if (!t) return [];
      if (ts.isUnionTypeNode(t)) return t.types.flatMap(keys);
      if (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal)) return [t.literal.text];
      if (ts.isTypeOperatorNode(t) && t.operator === ts.SyntaxKind.KeyOfKeyword)
        return members(t.type).map((m) => m.name);
      throw new Error(`types.ts: cannot read the keys ${t.getText(source)}`);
    };
    const name = node.nameType;
    const rename = (k: string) => {
      if (!name) return k;
      if (ts.isTemplateLiteralTypeNode(name) && name.templateSpans.length === 1)
        return `${name.head.text}${k}${name.templateSpans[0]?.literal.text ?? ''}`;
      throw new Error(`types.ts: cannot read the key names ${name.getText(source)}`);
    };
    const type = node.type?.getText(source) ?? '';
    return keys(node.typeParameter.constraint).map((k) => ({ name: rename(k), type }));
  };
  const database = aliases.get('Database');
  if (!database) throw new Error('types.ts has no Database type');
  const tables = new Map<string, Map<string, TypedColumn>>();
  for (const { name, type } of members(database)) {
    const table = aliases.get(type);
    if (!table) throw new Error(`Database.${name}: no type named ${type}`);
    tables.set(
      name,
      new Map(
        members(table).map((c) => [
          c.name,
          { nullable: /\bnull\b/.test(c.type), generated: /^Generated</.test(c.type) },
        ]),
      ),
    );
  }
  return tables;
}

/** A SQLite table's primary-key columns. */
async function primaryKeyOf(db: TestDb, table: string): Promise<Set<string>> {
  const rows = await sql<{
    name: string;
    pk: number;
  }>`select name, pk from pragma_table_info(${table})`.execute(db.handle.db);
  return new Set(rows.rows.filter((r) => r.pk > 0).map((r) => r.name));
}

const KYSELY_OWN = new Set(['kysely_migration', 'kysely_migration_lock']);

describe.each(dbKinds())('db/types.ts against the migrated schema (%s)', (kind) => {
  let db: TestDb | undefined;
  afterAll(async () => {
    await db?.drop();
  });

  it('declares every table with exactly its columns, nullability and generated columns', async () => {
    db = await createTestDb(kind);
    const declared = declaredTables();
    // SQLite's virtual tables (the FTS5 search index, ADR 0092) and their shadow tables are
    // read through raw SQL only, and are not in types.ts.
    const virtual =
      kind === 'sqlite'
        ? (
            await sql<{
              name: string;
            }>`select name from sqlite_master where type = 'table' and sql like 'create virtual table%'`.execute(
              db.handle.db,
            )
          ).rows.map((r) => r.name)
        : [];
    const actual = (await db.handle.db.introspection.getTables()).filter(
      (t) =>
        !virtual.some((v) => t.name === v || t.name.startsWith(`${v}_`)) &&
        !KYSELY_OWN.has(t.name) &&
        (t.schema === undefined || t.schema === db?.handle.schema || t.schema === 'public'),
    );
    expect(actual.map((t) => t.name).sort()).toEqual([...declared.keys()].sort());
    const problems: string[] = [];
    for (const table of actual) {
      const typed = declared.get(table.name) ?? new Map<string, TypedColumn>();
      const names = table.columns.map((c) => c.name);
      for (const c of names)
        if (!typed.has(c)) problems.push(`${table.name}.${c}: not in types.ts`);
      for (const c of typed.keys())
        if (!names.includes(c)) problems.push(`${table.name}.${c}: no such column`);
      // SQLite lets a primary key other than INTEGER hold NULL unless it says NOT NULL, and
      // reports it nullable; no code writes one (PostgreSQL refuses it), so it counts as NOT NULL.
      const keys = kind === 'sqlite' ? await primaryKeyOf(db, table.name) : new Set<string>();
      for (const c of table.columns) {
        const t = typed.get(c.name);
        if (!t) continue;
        const nullable = c.isNullable && !keys.has(c.name);
        if (!c.isAutoIncrementing && nullable !== t.nullable)
          problems.push(
            `${table.name}.${c.name}: ${c.isNullable ? 'NULL allowed' : 'NOT NULL'} in the schema, ${t.nullable ? '' : 'not '}nullable in types.ts`,
          );
        if (t.generated && !c.hasDefaultValue && !c.isAutoIncrementing)
          problems.push(
            `${table.name}.${c.name}: Generated<> in types.ts, but no default in the schema`,
          );
      }
    }
    expect(problems).toEqual([]);
  });
});
