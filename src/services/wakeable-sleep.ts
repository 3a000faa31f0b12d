// The pause of a background loop (the merge queue's executor, the rules engine) between passes:
// a timer that a wake cuts short. A wake that comes while the loop is busy is remembered, so the
// next pause does not wait at all: nothing asked for is missed between two passes.
export class WakeableSleep {
  private wakeUp: (() => void) | null = null;
  private woken = false;

  /** Cuts the current pause short, or the next one if none is under way. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        clearTimeout(timer);
        this.wakeUp = null;
        this.woken = false;
        resolve();
      };
      timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }
}
