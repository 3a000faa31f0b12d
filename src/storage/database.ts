// Row types of the schema in migrations/, as both drivers return them (drivers/ normalises):
// int8 arrives as a decimal string, json as its raw text, timestamptz as Date.
import type { ColumnType, Generated } from 'kysely';

type Int8 = ColumnType<string, string | bigint | number, string | bigint | number>;
type Serial = ColumnType<string, never, never>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface RepositoriesTable {
  id: Generated<string>;
  owner: string;
  name: string;
  owner_key: string;
  name_key: string;
  products: ColumnType<string[], string[] | undefined, string[]>;
  created_at: Timestamp;
}

export interface ApplicationKeysTable {
  id: string;
  owner: string;
  owner_key: string;
  scope: 'admin' | 'ci';
  name: string;
  secret_hash: string;
  created_at: Timestamp;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface DefaultProductsTable {
  owner_key: string;
  owner: string;
  products: string[];
  updated_at: Timestamp;
}

export interface PullRequestsTable {
  repository_id: Int8;
  number: Int8;
  state: 'open' | 'closed' | 'merged';
  head_sha: string | null;
  base_ref: string | null;
  head_seq: ColumnType<string, Int8 | undefined, Int8>;
  updated_at: Timestamp;
  platform_updated_at: Timestamp | null;
  draft: ColumnType<boolean, boolean | undefined, boolean>;
  title: string | null;
  author_login: string | null;
  author_id: ColumnType<string | null, string | bigint | null | undefined, string | bigint | null>;
  labels: ColumnType<string[], string[] | undefined, string[]>;
  /** Its page on the hosting platform (pull_request.html_url); null until a webhook tells it. */
  html_url: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ScopeReportColumns {
  repository_id: Int8;
  scopes: string[];
  all_scopes: boolean;
  seq: Int8;
  reported_at: Timestamp;
}

export interface CommitScopeReportsTable extends ScopeReportColumns {
  sha: string;
}

export interface PullScopeReportsTable extends ScopeReportColumns {
  number: Int8;
}

export interface WebhookDeliveriesTable {
  delivery_id: string;
  received_at: Timestamp;
}

/** Bodies of webhook deliveries applied (SHA-256, hex), so one sent again under a new delivery id is recognised. */
export interface WebhookPayloadsTable {
  digest: string;
  received_at: Timestamp;
}

export interface WebhookCommentCommandsTable {
  comment_id: Int8;
  received_at: Timestamp;
}

export interface EventsTable {
  id: Serial;
  repository_id: Int8;
  received_at: Timestamp;
  type: string;
  outcome: string;
  trigger: string;
  pull_request: ColumnType<string | null, string | bigint | null, string | bigint | null>;
  base_ref: string | null;
  batch_pull_request: ColumnType<string | null, string | bigint | null, string | bigint | null>;
  batch_id: string | null;
  idempotency_key: string | null;
  metadata: string;
}

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface MergeQueuesTable {
  id: string;
  repository_id: Int8;
  base_ref: string;
  created_at: Timestamp;
  lease_holder: string | null;
  lease_until: NullableTimestamp;
  wake_at: NullableTimestamp;
  version: ColumnType<string, string | number | undefined, string | number>;
  base_sha: string | null;
}

export interface MergeQueueEntriesTable {
  id: string;
  queue_id: string;
  repository_id: Int8;
  number: Int8;
  head_sha: string;
  queue_rule: string;
  priority: 'high' | 'medium' | 'low';
  priority_rule_name: string | null;
  entered_at: Timestamp;
  scopes_awaited_since: Timestamp;
  embark_count: ColumnType<number, number | undefined, number>;
  left_at: NullableTimestamp;
  leave_code: string | null;
  leave_batch_id: string | null;
  /** The executor's own update of the head in progress (JSON text), checks in place. */
  head_update: string | null;
}

export interface MergeQueueBatchesTable {
  id: string;
  queue_id: string;
  name: string;
  queue_rule: string;
  entry_ids: string[];
  parent_ids: string[];
  scopes: string[];
  all_scopes: boolean;
  phase: string;
  started_at: Timestamp;
  checks_started_at: NullableTimestamp;
  checks_ended_at: NullableTimestamp;
  retries: number;
  bisection_of: string | null;
  bisection_depth: number | null;
  culprit_entry_ids: string[];
  finished_at: NullableTimestamp;
  frozen_since: NullableTimestamp;
  frozen_ms: ColumnType<string, string | number | undefined, string | number>;
  run: string | null;
  cleaned: ColumnType<boolean, boolean | undefined, boolean>;
  intermediate_skipped: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface MergeQueueConfigurationsTable {
  repository_id: Int8;
  /** JSON text of the full MergeQueueConfig, defaults filled in. */
  config: string;
  updated_at: Timestamp;
}

export interface MergeQueuePausesTable {
  repository_id: Int8;
  reason: string;
  paused_at: Timestamp;
}

export interface ScheduledFreezesTable {
  id: string;
  repository_id: Int8;
  reason: string;
  start_at: Timestamp;
  end_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  timezone: string;
  /** JSON text of the condition arrays. */
  matching_conditions: string;
  exclude_conditions: string;
  created_at: Timestamp;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: Timestamp;
}

export interface RepositoryConfigurationsTable {
  repository_id: Int8;
  source_path: string | null;
  source_sha: string | null;
  default_branch: string | null;
  valid: boolean;
  errors: ColumnType<string, string, string>;
  good_path: string | null;
  good_sha: string | null;
  good_text: string | null;
  good_parent: string | null;
  read_at: Timestamp;
}

export interface RuleEvaluationsDueTable {
  repository_id: Int8;
  number: Int8;
  due_at: Timestamp;
}

export interface ConfigurationReadsDueTable {
  repository_id: Int8;
  due_at: Timestamp;
}

export interface PullRuleStatesTable {
  repository_id: Int8;
  number: Int8;
  head_sha: string;
  rules: ColumnType<string, string, string>;
  summary: ColumnType<string, string, string>;
  evaluated_at: Timestamp;
}

export interface RulesEngineLeasesTable {
  repository_id: Int8;
  holder: string;
  lease_until: Timestamp;
}

export interface Database {
  repositories: RepositoriesTable;
  application_keys: ApplicationKeysTable;
  default_products: DefaultProductsTable;
  pull_requests: PullRequestsTable;
  commit_scope_reports: CommitScopeReportsTable;
  pull_scope_reports: PullScopeReportsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_payloads: WebhookPayloadsTable;
  webhook_comment_commands: WebhookCommentCommandsTable;
  events: EventsTable;
  merge_queues: MergeQueuesTable;
  merge_queue_entries: MergeQueueEntriesTable;
  merge_queue_batches: MergeQueueBatchesTable;
  merge_queue_configurations: MergeQueueConfigurationsTable;
  merge_queue_pauses: MergeQueuePausesTable;
  scheduled_freezes: ScheduledFreezesTable;
  repository_configurations: RepositoryConfigurationsTable;
  rule_evaluations_due: RuleEvaluationsDueTable;
  configuration_reads_due: ConfigurationReadsDueTable;
  pull_rule_states: PullRuleStatesTable;
  rules_engine_leases: RulesEngineLeasesTable;
  schema_migrations: SchemaMigrationsTable;
}
