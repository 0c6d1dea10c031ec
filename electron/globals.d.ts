/** Replaced at build time by esbuild (scripts/build-node.mjs) with package.json's version. */
declare const __APP_VERSION__: string;
