// The files the dashboard loads, by the name it asks for: its own modules (src/web/assets/) and
// the installed Preact, htm and uPlot, served from node_modules so no build step is needed. The
// modules import each other by relative name, so Preact's hooks have their bare `preact` import
// pointed at the file served beside them (an import map would be an inline script).
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';

export const DASHBOARD_ASSETS = '/dashboard/assets';

export interface DashboardAsset {
  path: string;
  type: string;
  transform?: (bytes: Buffer) => Buffer;
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const OWN = new URL('assets/', import.meta.url).pathname;

/** The installed package's folder (htm exports no package.json, so found from its entry). */
function packageDir(name: string): string {
  const entry = createRequire(import.meta.url).resolve(name);
  const marker = `${sep}node_modules${sep}${name}${sep}`;
  return entry.slice(0, entry.lastIndexOf(marker) + marker.length - 1);
}

function rewriteImport(from: string, to: string): (bytes: Buffer) => Buffer {
  return (bytes) => Buffer.from(bytes.toString('utf8').replaceAll(`from"${from}"`, `from"${to}"`));
}

function vendorAssets(): Record<string, DashboardAsset> {
  const preact = packageDir('preact');
  const uplot = packageDir('uplot');
  return {
    'preact.js': { path: join(preact, 'dist/preact.module.js'), type: JS },
    'preact-hooks.js': { path: join(preact, 'hooks/dist/hooks.module.js'), type: JS, transform: rewriteImport('preact', './preact.js') },
    'htm.js': { path: join(packageDir('htm'), 'dist/htm.module.js'), type: JS },
    'uplot.js': { path: join(uplot, 'dist/uPlot.esm.js'), type: JS },
    'uplot.css': { path: join(uplot, 'dist/uPlot.min.css'), type: CSS },
  };
}

export function dashboardAssetFiles(): Record<string, DashboardAsset> {
  const own: Record<string, DashboardAsset> = {};
  for (const name of readdirSync(OWN)) {
    if (name.endsWith('.js')) own[name] = { path: join(OWN, name), type: JS };
    else if (name.endsWith('.css')) own[name] = { path: join(OWN, name), type: CSS };
  }
  return { ...own, ...vendorAssets() };
}
