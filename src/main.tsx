import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { setKeyRejected } from './data/client';
import { createQueryClient } from './data/query-client';
import { loadPageAt, prefetchPage } from './app/routes';
import { applyTheme, watchSystemTheme } from './app/theme';
import { appPath } from './data/base';
import { configFromPage } from './data/config';
import { prepareMoneyFormats } from './lib/money';
import './index.css';

applyTheme();
watchSystemTheme();

const client = createQueryClient(() => setKeyRejected(true));
// The opening page's data and code are asked for before anything renders (on the landing and users
// pages the server has preloaded the data with the HTML). Waiting briefly for the data lets the first
// render draw the page with it, instead of an empty page and then the whole page again; a slow answer
// does not hold the page back. The page's code arrives meanwhile: the page draws in a render of its own once it is in. The
// money formats are made while the data is on the way, not in the first render.
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
void loadPageAt(appPath(window.location.pathname));
const config = configFromPage();
const data = prefetchPage(client, config, {
  pathname: appPath(window.location.pathname),
  search: window.location.search,
});
prepareMoneyFormats(config?.currency);
await Promise.race([data, wait(100)]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App client={client} />
  </StrictMode>,
);
