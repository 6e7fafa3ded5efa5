import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { setKeyRejected } from './data/client';
import { createQueryClient } from './data/query-client';
import { prefetchPage } from './app/routes';
import { applyTheme, watchSystemTheme } from './app/theme';
import { configFromPage } from './data/config';
import './index.css';

applyTheme();
watchSystemTheme();

const client = createQueryClient(() => setKeyRejected(true));
// The opening page's data is asked for before anything renders (on the landing page the server has
// preloaded it with the HTML). Waiting briefly for it lets the first render draw the page with its data,
// instead of an empty page and then the whole page again; a slow answer does not hold the page back.
await Promise.race([
  prefetchPage(client, configFromPage(), window.location),
  new Promise((resolve) => setTimeout(resolve, 100)),
]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App client={client} />
  </StrictMode>,
);
