import { createContext, useContext } from 'react';

export const KeyPromptContext = createContext<{ keyRejected: boolean; setKeyRejected: (v: boolean) => void }>({
  keyRejected: false,
  setKeyRejected: () => {},
});

export const useKeyPrompt = () => useContext(KeyPromptContext);
