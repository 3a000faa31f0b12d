// A configuration change re-evaluating every open pull request (issue 30): a push to the default
// branch touching `.mergify.yml`, then the time until every pull request was evaluated under the
// new file and, when the change shows in the Summary, until every Summary on the platform shows
// it; and the platform writes it cost (none wanted where no Summary changes).
import { REPO, configuration, engineIdle, type ScenePull } from './rules-engine-scene.ts';
import type { RulesWorld } from './rules-engine-world.ts';
import { mutationsByKind, summaryWrites } from './rules-engine-writes.ts';
import type { EvaluationCalls } from './rules-engine-calls.ts';

export interface ConfigChangeResult {
  /** From the push to the last evaluation's end (every pull request evaluated under the new file). */
  evaluatedMs: number;
  /** From the push to the last Summary showing the change; null when the change shows in no Summary. */
  shownMs: number | null;
  /** Pull requests whose Summary shows the change at the end (visible changes only). */
  shown: number;
  evaluations: EvaluationCalls[];
  summaryWrites: number;
  /** Every write the platform received meanwhile, by kind (the Configuration check run on the new head among them). */
  mutations: Map<string, number>;
}

/** Per world, the file's revision and the name its Summaries show now (a change that must show nowhere keeps it). */
const files = new WeakMap<RulesWorld, { revision: number; wipName: string }>();

/** Pushes a new `.mergify.yml`: a comment changed only (`visible` false), or a rule renamed as every Summary shows it. */
export async function changeConfiguration(world: RulesWorld, pulls: readonly ScenePull[], visible: boolean, timeoutMs: number): Promise<ConfigChangeResult> {
  const file = files.get(world) ?? { revision: 0, wipName: 'work in progress' };
  files.set(world, file);
  file.revision += 1;
  if (visible) file.wipName = `work in progress (revision ${file.revision})`;
  const { revision, wipName } = file;
  const logIndex = world.platform.requestLog.length;
  const calls = world.switchyard.calls;
  const evaluationsBefore = calls.evaluations.length;
  const at = Date.now();
  await world.platform.push({ repo: REPO, branch: 'main', changes: { '.mergify.yml': configuration(revision, wipName) } });
  // Done when every pull request was evaluated after the file was read, and nothing is due.
  await waitEvaluated(world, evaluationsBefore, pulls.length, timeoutMs);
  await engineIdle(world, timeoutMs);
  const evaluations = calls.evaluations.slice(evaluationsBefore);
  const writes = summaryWrites(world.platform, logIndex);
  const heads = new Set(pulls.map((pull) => pull.head));
  const showing = writes.filter((write) => heads.has(write.head) && write.summary.includes(escaped(wipName)));
  const shownHeads = new Set(showing.map((write) => write.head));
  return {
    evaluatedMs: Math.max(...evaluations.map((evaluation) => evaluation.endedAt)) - at,
    shownMs: visible && showing.length ? Math.max(...showing.map((write) => write.at)) - at : null,
    shown: visible ? shownHeads.size : 0,
    evaluations,
    summaryWrites: writes.length,
    mutations: mutationsByKind(world.platform, logIndex),
  };
}

async function waitEvaluated(world: RulesWorld, before: number, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (world.switchyard.calls.evaluations.length - before < count) {
    if (Date.now() > deadline) throw new Error(`only ${world.switchyard.calls.evaluations.length - before} of ${count} pull requests evaluated within ${timeoutMs} ms of the configuration change`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The rule name as the Summary writes it (Markdown punctuation escaped). */
function escaped(name: string): string {
  return name.replace(/[()]/g, (char) => `\\${char}`);
}
