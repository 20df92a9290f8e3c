/** The web app's package version, set by vite.config.ts `define`. */
declare const __APP_VERSION__: string;
