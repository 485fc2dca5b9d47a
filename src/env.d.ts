/// <reference types="astro/client" />

declare namespace App {
  /** Set by server/main.ts (and the dev integration) for every server-rendered page: PageLocals. */
  interface Locals {
    callApi: import('../server/backend.ts').PageLocals['callApi'];
    readonly csrfToken: string;
    readonly csrfCookie: string | undefined;
    readonly siteOrigin: string;
    visitorCountry: import('../server/backend.ts').PageLocals['visitorCountry'];
    offersGeneration: import('../server/backend.ts').PageLocals['offersGeneration'];
    noteRoute: import('../server/backend.ts').PageLocals['noteRoute'];
  }
}
