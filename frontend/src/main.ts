// Entry point: the stylesheets every view shares (tokens, then base rules),
// then the <ss-app> shell, which pulls in every view; each view and
// component imports the rules of its own page (components render into
// light DOM, so all of them stay global).
import './styles/tokens.css';
import './styles/base.css';
import './app';
import { forgetAppWorkers } from './captured-panel';
import { startApp } from './team';

forgetAppWorkers();
void startApp();
