// One API read for a component: its answer or its Problem, read again when the path changes or
// when `retry` is called.
import { useEffect, useState } from './preact-hooks.js';
import { api } from './api.js';

export function useApi(path) {
  const [state, setState] = useState({ value: null, problem: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    setState({ value: null, problem: null });
    api(path).then(
      (answer) => current && setState({ value: answer.body, problem: null }),
      (problem) => current && setState({ value: null, problem }),
    );
    return () => {
      current = false;
    };
  }, [path, attempt]);
  return { ...state, retry: () => setAttempt((n) => n + 1) };
}
