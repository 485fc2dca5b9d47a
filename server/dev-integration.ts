import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';

// `npm run dev`: Astro's dev server with live reload, plus the real API and realtime hub mounted
// on the same port, so pages under edit show real data. The backend loads through Node itself
// (type stripping), not Vite: changes to server/ need a restart of `npm run dev`.

export function devBackend(): AstroIntegration {
  return {
    name: 'coinfair-dev-backend',
    hooks: {
      'astro:server:setup': async ({ server, logger }) => {
        const root = process.cwd();
        const load = (path: string) => import(pathToFileURL(join(root, path)).href);
        const [{ createBackend }, { readConfig }, { isApiPath }] = await Promise.all([
          load('server/backend.ts'),
          load('server/config.ts'),
          load('server/app.ts'),
        ]);
        const backend = await createBackend({
          config: readConfig({ NODE_ENV: 'development', ...process.env }),
          log: {
            info: (m: string) => logger.info(m),
            error: (m: string, e?: unknown) => logger.error(`${m} ${e ?? ''}`),
          },
        });
        server.middlewares.use((req, res, next) => {
          const pathname = (req.url ?? '/').split('?', 1)[0] ?? '/';
          if (isApiPath(pathname)) return void backend.api(req, res);
          // Astro's dev server reads a page's `Astro.locals` from this symbol on the request.
          Reflect.set(req, Symbol.for('astro.locals'), backend.pageLocals(req));
          next();
        });
        // Vite's own HMR socket shares the server; the hub only takes /ws.
        server.httpServer?.on('upgrade', (req, socket, head) => backend.hub.handleUpgrade(req, socket, head));
        server.httpServer?.once('close', () => void backend.stop());
        logger.info('API and realtime hub mounted on the dev server.');
      },
    },
  };
}
