import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: 'client',
  plugins: [react()],
  build: { outDir: '../dist/client', emptyOutDir: true, sourcemap: false },
  server: {
    port: Number(process.env.CLIENT_PORT ?? 5173),
    proxy: { '/api/v2': `http://127.0.0.1:${process.env.PORT ?? 3000}` },
  },
});
