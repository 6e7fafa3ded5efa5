import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { basePath } from '../data/base';
import { PAGES } from './routes';
import { NotFound, Shell } from './Shell';

export function App({ client }: { client: QueryClient }) {
  return (
    <QueryClientProvider client={client}>
      {/* Under BASE_PATH every page's address is below the base (`/dashboard/users`), the home page's with its
          slash (`/dashboard/`, where the server sends `/dashboard`); the routes name them without it. */}
      <BrowserRouter basename={basePath ? `${basePath}/` : undefined}>
        <Routes>
          <Route element={<Shell />}>
            {PAGES.map(({ path, Component }) => (
              <Route key={path} path={path} element={<Component />} />
            ))}
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
