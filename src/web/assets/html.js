// htm over Preact: tagged templates instead of JSX, so the browser runs the modules as written.
// Preact renders every interpolated value as text; no module uses dangerouslySetInnerHTML.
import { h } from './preact.js';
import htm from './htm.js';

export const html = htm.bind(h);
