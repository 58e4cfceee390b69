import type { Timestamp } from './columns.js';

/** A secret the instances sharing a database generated for themselves, sealed (never plain text). */
export interface SealedSecretsTable {
  name: string;
  sealed: string;
  created_at: Timestamp;
}
