// The portable dump: JSON lines, readable by any version of PostgreSQL the schema runs on (not
// PostgreSQL's own files, which PGlite writes in its version 18 format). In order:
//   {"switchyard_dump": 1, "created_at", "backend", "migrations": [{version, name}], "tables": [names, load order]}
//   per table: {"table", "columns": [{name, type}]}, then one line per row: [text or null, ...],
//              then {"end": table, "rows": n, "checksum": hex}
//   {"sequences": [{name, last_value}]}
//   {"end_of_dump": true}
import type { ColumnInfo, MigrationInfo, SequenceState } from './schema-catalogue.ts';

export const DUMP_VERSION = 1;

export interface DumpHeader {
  switchyard_dump: number;
  created_at: string;
  backend: string;
  migrations: MigrationInfo[];
  tables: string[];
}

export interface TableStart {
  table: string;
  columns: ColumnInfo[];
}

export interface TableEnd {
  end: string;
  rows: number;
  checksum: string;
}

export interface SequencesLine {
  sequences: SequenceState[];
}

export interface TableSummary {
  table: string;
  rows: number;
  checksum: string;
}

export class DumpError extends Error {}
