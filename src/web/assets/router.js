// The page's URL is the dashboard's state: moving is a history entry, Back and Forward work, and
// a copied address opens the same view.
import { useEffect, useState } from './preact-hooks.js';

export { repoRoute, repoUrl } from './repo-route.js';

const listeners = new Set();

export function navigate(url, { replace = false } = {}) {
  if (url === location.pathname + location.search) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', url);
  for (const listener of listeners) listener();
}

export function useLocation() {
  const [where, setWhere] = useState(() => ({ path: location.pathname, search: location.search }));
  useEffect(() => {
    const update = () => setWhere({ path: location.pathname, search: location.search });
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return where;
}

/** A link that moves within the dashboard without reloading it. */
export function onLinkClick(event) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(event.currentTarget.getAttribute('href'));
}
