// The operation ids of the public API document for the operations Switchyard shares with it
// (spec, DESIGN.md §9): a client generated from either document names them alike. Keyed by
// method and path, path parameters written `{}` so that a route naming one differently matches.

export const PUBLIC_OPERATION_IDS: Readonly<Record<string, string>> = {
  'PUT /repos/{}/{}/pulls/{}/scopes': 'put_ci_scopes_repos__owner___repository__pulls__number__scopes_put',
  'POST /repos/{}/{}/pulls/{}/scopes': 'set_ci_scopes_repos__owner___repository__pulls__number__scopes_post',
  'PUT /products/{}/{}': 'manage_products_on_a_github_repository_products__owner___repository__put',
  'GET /default_products/{}': 'get_default_enabled_products_default_products__owner__get',
  'PUT /default_products/{}': 'manage_default_enabled_products_default_products__owner__put',
  'GET /repos/{}/{}/logs': 'get_repository_events_repos__owner___repository__logs_get',
  'GET /repos/{}/{}/logs/aggregate': 'get_repository_events_aggregate_repos__owner___repository__logs_aggregate_get',
  'GET /repos/{}/{}/queues/configuration': 'repository_queues_configuration_repos__owner___repository__queues_configuration_get',
  'PUT /repos/{}/{}/queue/pause': 'create_queue_pause_repos__owner___repository__queue_pause_put',
  'DELETE /repos/{}/{}/queue/pause': 'delete_queue_pause_repos__owner___repository__queue_pause_delete',
  'GET /repos/{}/{}/queue/pause': 'get_queue_pause_repos__owner___repository__queue_pause_get',
  'POST /repos/{}/{}/queue/pause/delete': 'delete_queue_pause_repos__owner___repository__queue_pause_delete_post',
  'GET /repos/{}/{}/queues': 'repository_queues_repos__owner___repository__queues_get',
  'GET /repos/{}/{}/queues/branches': 'get_queue_base_refs_repos__owner___repository__queues_branches_get',
  'GET /repos/{}/{}/scheduled_freeze': 'get_scheduled_freezes_repos__owner___repository__scheduled_freeze_get',
  'POST /repos/{}/{}/scheduled_freeze': 'create_scheduled_freeze_repos__owner___repository__scheduled_freeze_post',
  'PATCH /repos/{}/{}/scheduled_freeze/{}': 'update_scheduled_freeze_repos__owner___repository__scheduled_freeze__freeze_id__patch',
  'DELETE /repos/{}/{}/scheduled_freeze/{}': 'delete_scheduled_freeze_repos__owner___repository__scheduled_freeze__freeze_id__delete',
  'POST /repos/{}/{}/scheduled_freeze/{}/delete': 'delete_scheduled_freeze_repos__owner___repository__scheduled_freeze__freeze_id__delete_post',
  'GET /repos/{}/{}/merge-queue/branches': 'get_merge_queue_branches_repos__owner___repository__merge_queue_branches_get',
  'GET /repos/{}/{}/merge-queue/status': 'get_merge_queue_status_endpoint_repos__owner___repository__merge_queue_status_get',
  'GET /repos/{}/{}/merge-queue/pull/{}': 'get_merge_queue_pull_request_repos__owner___repository__merge_queue_pull__pr_number__get',
  'GET /repos/{}/{}/merge-queue/pull/{}/dequeue-impact': 'get_merge_queue_dequeue_impact_repos__owner___repository__merge_queue_pull__pr_number__dequeue_impact_get',
  'POST /repos/{}/{}/merge-queue/pull/{}/dequeue': 'dequeue_merge_queue_pull_request_repos__owner___repository__merge_queue_pull__pr_number__dequeue_post',
  'PUT /repos/{}/{}/merge-queue/pause': 'create_merge_queue_pause_repos__owner___repository__merge_queue_pause_put',
  'DELETE /repos/{}/{}/merge-queue/pause': 'delete_merge_queue_pause_repos__owner___repository__merge_queue_pause_delete',
  'GET /repos/{}/{}/merge-queue/pause': 'get_merge_queue_pause_repos__owner___repository__merge_queue_pause_get',
  'GET /repos/{}/{}/stats/average_ci_runtime': 'get_average_ci_runtime_repos__owner___repository__stats_average_ci_runtime_get',
  'GET /repos/{}/{}/stats/batch_bisection': 'get_stats_batch_bisection_repos__owner___repository__stats_batch_bisection_get',
  'GET /repos/{}/{}/stats/batch_size': 'get_stats_batch_size_repos__owner___repository__stats_batch_size_get',
  'GET /repos/{}/{}/stats/branches': 'get_stats_branches_repos__owner___repository__stats_branches_get',
  'GET /repos/{}/{}/stats/checks_retries': 'get_queue_checks_retries_repos__owner___repository__stats_checks_retries_get',
  'GET /repos/{}/{}/stats/failure_rate': 'get_queue_failure_rate_repos__owner___repository__stats_failure_rate_get',
  'GET /repos/{}/{}/stats/idle_queue_time': 'get_average_idle_queue_time_repos__owner___repository__stats_idle_queue_time_get',
  'GET /repos/{}/{}/stats/merge_queue_checks_outcome': 'get_checks_outcome_repos__owner___repository__stats_merge_queue_checks_outcome_get',
  'GET /repos/{}/{}/stats/queue_size': 'get_queue_size_repos__owner___repository__stats_queue_size_get',
  'GET /repos/{}/{}/stats/queues': 'get_stats_queues_repos__owner___repository__stats_queues_get',
  'GET /repos/{}/{}/stats/queues_checks_outcome_count': 'get_checks_outcome_by_interval_repos__owner___repository__stats_queues_checks_outcome_count_get',
  'GET /repos/{}/{}/stats/queues_entered_count': 'get_queues_pull_requests_entered_count_repos__owner___repository__stats_queues_entered_count_get',
  'GET /repos/{}/{}/stats/queues_merged_count': 'get_queues_pull_requests_merged_count_repos__owner___repository__stats_queues_merged_count_get',
  'GET /repos/{}/{}/stats/queues_pr_exit_reasons': 'get_pr_exit_reasons_repos__owner___repository__stats_queues_pr_exit_reasons_get',
  'GET /repos/{}/{}/stats/running_speculative_checks': 'get_total_running_checks_repos__owner___repository__stats_running_speculative_checks_get',
  'GET /repos/{}/{}/stats/skip_intermediate_results': 'get_skip_intermediate_results_repos__owner___repository__stats_skip_intermediate_results_get',
  'GET /repos/{}/{}/stats/time_to_merge': 'get_time_to_merge_stats_for_all_queues_and_partitions_endpoint_repos__owner___repository__stats_time_to_merge_get',
  'GET /repos/{}/{}/stats/total_queue_time': 'get_total_queue_time_repos__owner___repository__stats_total_queue_time_get',
};

/** `GET /repos/{owner}/{repository}/logs` → `GET /repos/{}/{}/logs`. */
export function publicOperationKey(method: string, documentPath: string): string {
  return `${method.toUpperCase()} ${documentPath.replace(/\{[^}]*\}/g, '{}')}`;
}
