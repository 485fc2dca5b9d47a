// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import { devBackend } from './server/dev-integration.ts';

// Pages are prerendered by default; live pages opt out with `export const prerender = false`.
// Assets land under /dist/ (spec section 2: assets base path).
export default defineConfig({
  output: 'static',
  outDir: './build',
  adapter: node({ mode: 'middleware' }),
  integrations: [react(), devBackend()],
  build: { assets: 'dist', format: 'directory' },
  trailingSlash: 'ignore',
  compressHTML: true,
  devToolbar: { enabled: false },
  server: { port: 4321, host: '127.0.0.1' },
});
