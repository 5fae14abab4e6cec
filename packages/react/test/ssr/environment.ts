/**
 * Stands in for "another machine": a default locale, a default time zone and a clock offset, patched into
 * `Date` and `Intl` so one process (Node, or one browser page) can render as the server and hydrate as a
 * client that differs from it in all three. Only defaults change: an explicit locale or time zone passed by
 * the caller still wins, as on a real machine.
 */

/** Where and when a render happens. */
export interface RenderEnvironment {
  locale: string;
  timeZone: string;
  /** Added to the real clock (`Date.now()`, `new Date()`). */
  clockOffsetMs: number;
}

/** The server of the tests: UTC, en-US, the real clock. */
export const SERVER: RenderEnvironment = { locale: "en-US", timeZone: "UTC", clockOffsetMs: 0 };
/** A client far from it: another language, a half-hour time zone, a clock 61.5 s ahead. */
export const CLIENT: RenderEnvironment = {
  locale: "de-DE",
  timeZone: "Asia/Kolkata",
  clockOffsetMs: 61_500,
};

type LocaleMethod = (
  this: Date,
  locales?: Intl.LocalesArgument,
  options?: Intl.DateTimeFormatOptions,
) => string;

/** Makes `env` the default until the returned function is called. */
export function applyEnvironment(env: RenderEnvironment): () => void {
  const RealDate = Date;
  const RealFormat = Intl.DateTimeFormat;
  const proto = RealDate.prototype as unknown as Record<string, LocaleMethod>;
  const methods = ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"] as const;
  const saved = methods.map((m) => proto[m] as LocaleMethod);
  const realNow = RealDate.now;

  const withDefaults = (options?: Intl.DateTimeFormatOptions) => ({ timeZone: env.timeZone, ...options });
  methods.forEach((m, i) => {
    const original = saved[i] as LocaleMethod;
    proto[m] = function (this: Date, locales, options) {
      return original.call(this, locales ?? env.locale, withDefaults(options));
    };
  });

  const Format = function (
    this: unknown,
    locales?: Intl.LocalesArgument,
    options?: Intl.DateTimeFormatOptions,
  ) {
    return new RealFormat(locales ?? env.locale, withDefaults(options));
  } as unknown as typeof Intl.DateTimeFormat;
  Object.defineProperties(Format, {
    supportedLocalesOf: { value: RealFormat.supportedLocalesOf },
    prototype: { value: RealFormat.prototype },
  });
  Intl.DateTimeFormat = Format;

  RealDate.now = () => realNow.call(RealDate) + env.clockOffsetMs;
  // `new Date()` without arguments reads the clock too.
  const ShiftedDate = new Proxy(RealDate, {
    construct(target, args: unknown[]) {
      return args.length === 0
        ? new target(RealDate.now())
        : new target(...(args as ConstructorParameters<typeof Date>));
    },
  });
  globalThis.Date = ShiftedDate;

  return () => {
    globalThis.Date = RealDate;
    RealDate.now = realNow;
    Intl.DateTimeFormat = RealFormat;
    methods.forEach((m, i) => {
      proto[m] = saved[i] as LocaleMethod;
    });
  };
}

/** Runs `fn` with `env` as the default, restoring the real one afterwards. */
export function inEnvironment<T>(env: RenderEnvironment, fn: () => T): T {
  const restore = applyEnvironment(env);
  try {
    return fn();
  } finally {
    restore();
  }
}
