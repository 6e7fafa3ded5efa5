import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { readBasePath, stripBase } from './src/server/core/base-path';

/**
 * Mounts the dashboard's own server (proxy, demo service, config) inside Vite's dev server, and renders
 * the page as the production server does (the configuration inlined, the first data preloaded). Under
 * BASE_PATH, Vite serves its modules under the base too (`base` below): the app's handler takes the base
 * off for its own routes, and hands Vite the address as it came.
 */
function dashboardServer(): Plugin {
  let app: { renderIndex: (html: string, url: string) => string } | undefined;
  return {
    name: 'dashboard-server',
    apply: 'serve',
    async configureServer(server) {
      const { createApp, openAppStore } = await server.ssrLoadModule('/src/server/app.ts');
      const { readServerConfig } = await server.ssrLoadModule('/src/server/config.ts');
      const { readStoreConfig } = await server.ssrLoadModule('/src/server/store/config.ts');
      const { createLogger } = await server.ssrLoadModule('/src/server/core/log.ts');
      const config = readServerConfig();
      const storeConfig = readStoreConfig();
      const store = await openAppStore(config, storeConfig);
      const dashboard = createApp(config, { logger: createLogger(), store, storeConfig });
      app = dashboard;
      if (storeConfig.background) dashboard.scheduler?.start();
      server.middlewares.use((req, res, next) => {
        const url = req.url;
        dashboard.handler(req, res, () => {
          req.url = url;
          next();
        });
      });
    },
    transformIndexHtml(html, ctx) {
      return app ? app.renderIndex(html, stripBase(basePath, ctx.originalUrl ?? ctx.path) ?? '/') : html;
    },
  };
}

const basePath = readBasePath();

export default defineConfig(({ command }) => ({
  // The built page and chunks name their assets relatively, so one build serves any BASE_PATH: the server
  // names the page's own from the base when it sends the page (src/server/page.ts), and chunks load
  // theirs relative to their own address (import.meta.url). The dev server serves under the base itself.
  base: command === 'build' ? './' : `${basePath}/`,
  plugins: [react(), tailwindcss(), dashboardServer()],
  server: { port: Number(process.env.PORT || 5173), strictPort: true },
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // The landing page's code, in one file rather than a dozen small ones on its path: the libraries below
              // (react-dom's client is main.tsx's own), the app (src/app: the shell, the routes and the usage page they
              // import) and main.tsx's query client, with all they import statically (a group takes its modules'
              // dependencies along). The other pages (import()) and what only they use stay out: TanStack Query is
              // not named here, or the parts only they use (many queries at once, mutations) would come along.
              name: 'app',
              test: (id: string) =>
                /node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|zod|d3-array|d3-shape|d3-path|react-error-boundary)\//.test(
                  id,
                ) || /\/src\/(app\/|data\/query-client\.ts$)/.test(id),
            },
            {
              // What the other pages share beyond it (a module the app group took stays there), in one file rather
              // than one per set of pages sharing it; the charts' and the large tables' libraries apart, as not every
              // page draws them, and the readiness criteria and the walks (the readiness pages' own).
              name: 'shared',
              test: (id: string) =>
                (/\/src\/(lib|components|data|api)\//.test(id) &&
                  !/(RechartsTimeSeries|CategoryBarChart|BurnChart|VirtualTable|criteria|paginate)\.(tsx?|json)$/.test(
                    id,
                  )) ||
                /node_modules\/@tanstack\/(query-core|react-query)\//.test(id),
            },
          ],
        },
      },
    },
  },
}));
