/**
 * Whether readers are being answered. Work done ahead of them (a users table made before anyone asks for it) waits
 * for a moment without any: at 50,000 people a table made ahead took seconds from the first pages a restarted server
 * answered, the very pages it was made to speed up.
 */
export interface Quiet {
  /** A reader's request has begun; the function given back says it has ended (once, whatever it is called). */
  enter(): () => void;
  /** Resolves once no request has been under way for the settling time. */
  idle(): Promise<void>;
}

export function createQuiet(settleMs = 500): Quiet {
  let busy = 0;
  let since = Date.now();
  let waiting: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer || busy > 0 || waiting.length === 0) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        if (busy > 0) return;
        if (Date.now() - since < settleMs) return arm();
        const go = waiting;
        waiting = [];
        for (const ok of go) ok();
      },
      Math.max(0, since + settleMs - Date.now()),
    );
  };
  return {
    enter() {
      busy++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        busy--;
        since = Date.now();
        arm();
      };
    },
    idle: () =>
      new Promise<void>((ok) => {
        waiting.push(ok);
        arm();
      }),
  };
}
