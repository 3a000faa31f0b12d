// A merge-queue scenario: who arrives when, with which scopes, which pull requests are bad, how
// long each CI run takes. Generated from a seed, so the simulation (merge-queue-simulation.ts)
// and a run through the real executor against the fake platform (issue 15) can replay the same
// one, the latter at a reduced scale (scaleScenario: minutes become seconds).
import { exponential, seededRandom, zipfSampler } from './merge-queue-random.ts';

export interface ScenarioOptions {
  /** Mean arrivals per hour (a Poisson process). */
  arrivalsPerHour: number;
  /** How long pull requests keep arriving. */
  hours: number;
  /** Mean CI duration of one run. */
  ciMinutes: number;
  /** fixed: every run takes ciMinutes; uniform: ±ciSpread around it; lognormal: median ciMinutes, sigma ciSpread. */
  ciDistribution: 'fixed' | 'uniform' | 'lognormal';
  ciSpread: number;
  /** Probability that a pull request is bad: every check that includes its changes fails. */
  failureRate: number;
  /** Probability that a run fails whatever it checks (flaky CI). */
  flakyRate: number;
  /** Number of scopes, drawn from a zipf law of this exponent (scope-0 the busiest). */
  scopes: number;
  zipfExponent: number;
  /** Probability that a pull request touches a second scope (drawn the same way). */
  secondScopeRate: number;
  /** Probability that a pull request is a barrier (all_scopes). */
  barrierRate: number;
  seed: number;
}

export const DEFAULT_SCENARIO: ScenarioOptions = {
  arrivalsPerHour: 40,
  hours: 72,
  ciMinutes: 30,
  ciDistribution: 'uniform',
  ciSpread: 0.2,
  failureRate: 0.1,
  flakyRate: 0,
  scopes: 8,
  zipfExponent: 1,
  secondScopeRate: 0,
  barrierRate: 0,
  seed: 14,
};

export interface ScenarioPull {
  number: number;
  /** Milliseconds from the start of the scenario. */
  arrivesAt: number;
  scopes: string[];
  barrier: boolean;
  bad: boolean;
}

export interface Scenario {
  options: ScenarioOptions;
  pulls: ScenarioPull[];
  /** Milliseconds the run-th CI run (0-based, in start order) takes. */
  ciDuration: (run: number) => number;
  /** Whether the run-th CI run fails whatever it checks. */
  ciFlaky: (run: number) => boolean;
  /** Scale factor applied (1: real time). */
  scale: number;
}

const HOUR = 3_600_000;

export function generateScenario(options: ScenarioOptions): Scenario {
  const random = seededRandom(options.seed);
  const scope = zipfSampler(options.scopes, options.zipfExponent, random);
  const pulls: ScenarioPull[] = [];
  let at = 0;
  for (let number = 1; ; number++) {
    at += exponential(HOUR / options.arrivalsPerHour, random);
    if (at >= options.hours * HOUR) break;
    const scopes = new Set([`scope-${scope()}`]);
    if (random() < options.secondScopeRate) scopes.add(`scope-${scope()}`);
    pulls.push({ number, arrivesAt: Math.round(at), scopes: [...scopes].sort(), barrier: random() < options.barrierRate, bad: random() < options.failureRate });
  }
  return { options, pulls, ciDuration: (run) => ciDuration(options, run), ciFlaky: (run) => runRandom(options.seed ^ 0x5eed, run) < options.flakyRate, scale: 1 };
}

/** The same scenario with every time multiplied by `factor` (1/60: an hour becomes a minute). */
export function scaleScenario(scenario: Scenario, factor: number): Scenario {
  return {
    ...scenario,
    pulls: scenario.pulls.map((pull) => ({ ...pull, arrivesAt: Math.round(pull.arrivesAt * factor) })),
    ciDuration: (run) => Math.round(scenario.ciDuration(run) * factor),
    scale: scenario.scale * factor,
  };
}

/** A draw in [0, 1) that depends only on the seed and the index, whatever was drawn before. */
function runRandom(seed: number, run: number): number {
  return seededRandom((seed ^ Math.imul(run + 1, 0x9e3779b1)) >>> 0)();
}

function ciDuration(options: ScenarioOptions, run: number): number {
  const mean = options.ciMinutes * 60_000;
  const u = runRandom(options.seed, run);
  switch (options.ciDistribution) {
    case 'fixed':
      return mean;
    case 'uniform':
      return Math.round(mean * (1 - options.ciSpread + 2 * options.ciSpread * u));
    case 'lognormal': {
      const v = runRandom(options.seed ^ 0x10f, run);
      const normal = Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
      return Math.round(mean * Math.exp(options.ciSpread * normal));
    }
  }
}
