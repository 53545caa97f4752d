/**
 * Errors that describe a request or an answer, not a fault of this code: a refusal told to a
 * client, the outcome of a backend call. Their stack would name the code that noticed, never a
 * cause; nobody reads it (the log keeps stacks for bugs only, a client sees none), yet capturing
 * it is most of what making one costs, and a refused request or a list of unknown ids makes them
 * by the dozen. These are made with no frames: `stack` reads as the name and message alone.
 *
 * V8 captures a stack when an error is constructed, as deep as `Error.stackTraceLimit` says;
 * zero while one is made captures nothing, and the limit is put back at once.
 */
export function stackless<E extends Error>(make: () => E): E {
  const frames = noFrames();
  try {
    return make();
  } finally {
    framesAgain(frames);
  }
}

/**
 * For a constructor of such errors, around its `super` call (which no callback can hold):
 * `const frames = noFrames(); super(…); framesAgain(frames);`.
 */
export function noFrames(): number {
  const frames = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return frames;
}

export function framesAgain(frames: number): void {
  Error.stackTraceLimit = frames;
}
