import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { createQueryClient } from './query-client';
import { pageRoutes } from './routes';
import { NotFound, RouteError, Shell } from './Shell';
import { KeyPromptContext } from './key-prompt';

const router = createBrowserRouter([
  {
    path: '/',
    Component: Shell,
    children: [{ ErrorBoundary: RouteError, children: [...pageRoutes, { path: '*', Component: NotFound }] }],
  },
]);

export function App() {
  const [keyRejected, setKeyRejected] = useState(false);
  const [client] = useState(() => createQueryClient(() => setKeyRejected(true)));
  return (
    <QueryClientProvider client={client}>
      <KeyPromptContext.Provider value={{ keyRejected, setKeyRejected }}>
        <RouterProvider router={router} />
      </KeyPromptContext.Provider>
    </QueryClientProvider>
  );
}
