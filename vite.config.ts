import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is a static bundle: Electron loads it from disk (hence the
// relative base) and the headless shell serves the same files over HTTP.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: { host: '127.0.0.1', strictPort: false },
});
