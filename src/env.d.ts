/// <reference types="astro/client" />

declare namespace App {
  /** Set by server/main.ts (and the dev integration) for every server-rendered page: PageLocals. */
  interface Locals {
    callApi: import('../server/backend.ts').PageLocals['callApi'];
    csrfToken: string;
    csrfCookie: string | undefined;
    visitorCountry: import('../server/backend.ts').PageLocals['visitorCountry'];
    offersGeneration: import('../server/backend.ts').PageLocals['offersGeneration'];
  }
}
