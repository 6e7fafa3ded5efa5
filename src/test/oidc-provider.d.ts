/** oidc-provider ships no types; the tests use a small part of it (src/test/oidc.ts). */
declare module 'oidc-provider';
