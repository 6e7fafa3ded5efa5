import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Mounts the dashboard's own server (proxy, demo service, config) inside Vite's dev server. */
function dashboardServer(): Plugin {
  return {
    name: 'dashboard-server',
    apply: 'serve',
    async configureServer(server) {
      const { createApp } = await server.ssrLoadModule('/src/server/app.ts');
      const { readServerConfig } = await server.ssrLoadModule('/src/server/config.ts');
      const { createLogger } = await server.ssrLoadModule('/src/server/log.ts');
      const app = createApp(readServerConfig(), { logger: createLogger() });
      server.middlewares.use((req, res, next) => app.handler(req, res, next));
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), dashboardServer()],
  server: { port: Number(process.env.PORT || 5173), strictPort: true },
  build: { target: 'es2022', sourcemap: false },
});
