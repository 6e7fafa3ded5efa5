/**
 * The Chromium the tests, the bench and the screenshots drive: Debian's when it is installed (this
 * project's machines cannot download browsers), elsewhere Playwright's own; CHROMIUM_PATH wins.
 */
import { existsSync } from 'node:fs';

export const chromiumPath =
  process.env.CHROMIUM_PATH || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/**
 * No sandbox (containers), no GPU, and none of the browser's own work beside the page: no background
 * networking, component updates or sync, and no omnibox popup. Chromium 156 builds its omnibox popup
 * as a WebUI in every new window, some 300 module requests, even headless where there is no omnibox
 * to show: on a 2-core machine that halved the CPU left to a page opened in a new context (a users
 * page drawn in 0.9-1.4 s instead of 0.5 s).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
];
