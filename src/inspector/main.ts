// Entry point of the inspector's page: renders the app into <main id="app">.
import { html } from 'htm/preact';
import { render } from 'preact';
import { App } from './app.js';
import 'uplot/dist/uPlot.min.css';
import './inspector.css';

render(html`<${App} />`, document.getElementById('app')!);
