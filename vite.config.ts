import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Mounts the dashboard's own server (proxy, demo service, config) inside Vite's dev server. */
function dashboardServer(): Plugin {
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
      const app = createApp(config, { logger: createLogger(), store, storeConfig });
      if (storeConfig.background) app.scheduler?.start();
      server.middlewares.use((req, res, next) => app.handler(req, res, next));
    },
  };
}

export default defineConfig({
  // The built page and chunks name their assets relatively, so one build serves any BASE_PATH: the server
  // names the page's own from the base when it sends the page (src/server/page.ts), and chunks load
  // theirs relative to their own address (import.meta.url).
  base: './',
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
              // What every page needs, in one file rather than a dozen small ones on the landing path.
              name: 'app',
              test: (id: string) =>
                /node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|@tanstack\/(query-core|react-query)|zod|d3-array|d3-shape|d3-path|react-error-boundary)\//.test(
                  id,
                ) ||
                (/\/src\/(api|lib|components|app)\//.test(id) &&
                  !/(RechartsTimeSeries|CategoryBarChart|VirtualTable|criteria|paginate)\.(tsx?|json)$/.test(id)) ||
                /\/src\/features\/[^/]+\/queries\.ts$/.test(id),
            },
          ],
        },
      },
    },
  },
});
