// A leading-edge throttle: the first call runs at once, calls within `ms` of the last one that ran
// are dropped. The guided tour's start button uses it (spec section 9: "Tour start throttle: 500 ms").

export const TOUR_START_THROTTLE_MS = 500;

export function throttle<A extends unknown[]>(
  run: (...args: A) => void,
  ms: number,
  now: () => number = () => performance.now(),
): (...args: A) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (...args: A) => {
    const at = now();
    if (at - last < ms) return;
    last = at;
    run(...args);
  };
}
