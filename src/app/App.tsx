import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { createQueryClient } from './query-client';
import { configFromPage } from '../components/app-config';
import { PAGES, prefetchPage } from './routes';
import { NotFound, Shell } from './Shell';
import { KeyPromptContext } from './key-prompt';

export function App() {
  const [keyRejected, setKeyRejected] = useState(false);
  const [client] = useState(() => {
    const c = createQueryClient(() => setKeyRejected(true));
    // The opening page's data is asked for now, while the page renders, not after it has mounted.
    prefetchPage(c, configFromPage(), window.location);
    return c;
  });
  return (
    <QueryClientProvider client={client}>
      <KeyPromptContext.Provider value={{ keyRejected, setKeyRejected }}>
        <BrowserRouter>
          <Routes>
            <Route element={<Shell />}>
              {PAGES.map(({ path, Component }) => (
                <Route key={path} path={path} element={<Component />} />
              ))}
              <Route path="*" element={<NotFound />} />
            </Route>
          </Routes>
        </BrowserRouter>
      </KeyPromptContext.Provider>
    </QueryClientProvider>
  );
}
