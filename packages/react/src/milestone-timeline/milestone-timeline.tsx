/**
 * `MilestoneTimeline`: the milestones a run reached, as an ordered list with the latest marked
 * `aria-current="step"`, expected ones shown as upcoming, and a polite live region for new milestones.
 */
import {
  type AgentToolMilestone,
  type AgentToolRun,
  milestoneAnnouncement,
  type TimelineItem,
  timelineItems,
  unseenMilestones,
  valueText,
} from "@runboard/protocol";
import { type CSSProperties, type ReactNode, useEffect, useRef, useState } from "react";
import {
  createPartContext,
  dataFlag,
  type PrimitiveProps,
  renderPart,
  useHydrated,
  usePartContext,
} from "../primitives/index.ts";

const NO_MILESTONES: readonly AgentToolMilestone[] = Object.freeze([]);

const ItemContext = createPartContext<TimelineItem>("MilestoneTimeline.Item");

/** Props of `MilestoneTimeline.Root`. */
export interface MilestoneTimelineRootProps extends Omit<PrimitiveProps<"ol">, "children"> {
  /** The run whose milestones to list. */
  run?: Pick<AgentToolRun, "milestones">;
  /** Milestones to list, when not taken from `run`. */
  milestones?: readonly AgentToolMilestone[];
  /** Names the run is expected to reach, in order; those not reached render as upcoming items. */
  expected?: readonly string[];
  /** Renders one step; it must return a `MilestoneTimeline.Item`. Default: the item with its name and time. */
  children?: (item: TimelineItem) => ReactNode;
}

const defaultItem = () => (
  <MilestoneTimeline.Item>
    <MilestoneTimeline.Name /> <MilestoneTimeline.Time />
  </MilestoneTimeline.Item>
);

/** The ordered list (`<ol>`): reached milestones by sequence, then upcoming ones. `data-count` = reached. */
function Root({ run, milestones, expected, children = defaultItem, ...props }: MilestoneTimelineRootProps) {
  const list = milestones ?? run?.milestones ?? NO_MILESTONES;
  const items = timelineItems(list, expected);
  return renderPart("ol", {
    "data-count": list.length,
    children: items.map((item) => (
      <ItemContext.Context.Provider key={item.key} value={item}>
        {children(item)}
      </ItemContext.Context.Provider>
    )),
    ...props,
  });
}

/** The step of the current render, for parts of your own. Throws outside an item. */
export function useMilestoneTimelineItem(): TimelineItem {
  return usePartContext(ItemContext, "useMilestoneTimelineItem");
}

/** One step (`<li>`): `data-state` `reached | upcoming`, `aria-current="step"` and `data-current` on the latest. */
function Item(props: PrimitiveProps<"li">) {
  const item = usePartContext(ItemContext, "MilestoneTimeline.Item");
  return renderPart("li", {
    "aria-current": item.current ? "step" : undefined,
    "data-state": item.status,
    "data-current": dataFlag(item.current),
    "data-name": item.name,
    ...props,
  });
}

/** The milestone's name. */
function Name(props: PrimitiveProps<"span">) {
  const item = usePartContext(ItemContext, "MilestoneTimeline.Name");
  return renderPart("span", { children: item.name, ...props });
}

/** Props of `MilestoneTimeline.Time`. */
export interface MilestoneTimelineTimeProps extends PrimitiveProps<"time"> {
  /**
   * Formats the server time (epoch ms). Default: the locale's time of day. Called in the browser only, after
   * mount: the reader's locale and time zone are not the server's.
   */
  format?: (at: number) => string;
}

const timeOfDay = (at: number) => new Date(at).toLocaleTimeString();

/**
 * When the milestone was reached (server time), as `<time dateTime>`; nothing for upcoming steps. A server
 * render (and the page hydrating it) shows the ISO datetime, the same everywhere; `format`'s text replaces it
 * right after mount.
 */
function Time({ format = timeOfDay, ...props }: MilestoneTimelineTimeProps) {
  const item = usePartContext(ItemContext, "MilestoneTimeline.Time");
  const hydrated = useHydrated();
  if (item.status !== "reached") return null;
  const at = item.milestone.at;
  const iso = new Date(at).toISOString();
  return renderPart("time", { dateTime: iso, children: hydrated ? format(at) : iso, ...props });
}

/** Props of `MilestoneTimeline.Data`. */
export interface MilestoneTimelineDataProps extends Omit<PrimitiveProps<"div">, "children"> {
  /** Renders the milestone's `data`. Default: the data as text (JSON), never as HTML. */
  children?: (data: unknown, milestone: AgentToolMilestone) => ReactNode;
}

/** The milestone's data, through a render prop; nothing for upcoming steps or milestones without data. */
function Data({ children, ...props }: MilestoneTimelineDataProps) {
  const item = usePartContext(ItemContext, "MilestoneTimeline.Data");
  if (item.status !== "reached" || item.milestone.data === undefined) return null;
  const { data } = item.milestone;
  return renderPart("div", {
    children: children ? children(data, item.milestone) : valueText(data),
    ...props,
  });
}

// Visually hidden but read: the region is for screen readers; sighted users see the list itself.
const VISUALLY_HIDDEN: CSSProperties = {
  position: "absolute",
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0, 0, 0, 0)",
  whiteSpace: "nowrap",
  border: 0,
};

/** Props of `MilestoneTimeline.Announcer`. */
export interface MilestoneTimelineAnnouncerProps extends Omit<PrimitiveProps<"div">, "children"> {
  run?: Pick<AgentToolRun, "milestones">;
  milestones?: readonly AgentToolMilestone[];
  /** The sentence for milestones that just landed. Default `Milestone reached: <name>`. */
  format?: (fresh: readonly AgentToolMilestone[]) => string;
  /** Show the region instead of hiding it visually. */
  visible?: boolean;
}

/**
 * A visually hidden polite live region (`role="status"`) that speaks when a new milestone lands. Milestones
 * present when it mounts are history and are not announced; progress ticks never are. Render it beside the
 * `<ol>`, not inside it.
 */
function Announcer({
  run,
  milestones,
  format = milestoneAnnouncement,
  visible,
  style,
  ...props
}: MilestoneTimelineAnnouncerProps) {
  const list = milestones ?? run?.milestones ?? NO_MILESTONES;
  const seen = useRef<Set<number> | null>(null);
  if (seen.current === null) seen.current = new Set(list.map((m) => m.sequence));
  const [message, setMessage] = useState("");
  const formatRef = useRef(format);
  formatRef.current = format;
  useEffect(() => {
    const known = seen.current as Set<number>;
    const fresh = unseenMilestones(known, list);
    if (fresh.length === 0) return;
    for (const m of fresh) known.add(m.sequence);
    setMessage(formatRef.current(fresh));
  }, [list]);
  return renderPart("div", {
    role: "status",
    "aria-live": "polite",
    "aria-atomic": true,
    style: visible ? style : { ...VISUALLY_HIDDEN, ...style },
    children: message,
    ...props,
  });
}

/**
 * The milestones a run reached, in order.
 *
 * @example
 * ```tsx
 * <MilestoneTimeline.Root run={run} expected={["sources-gathered", "draft", "review"]} aria-label="Milestones">
 *   {() => (
 *     <MilestoneTimeline.Item>
 *       <MilestoneTimeline.Name /> <MilestoneTimeline.Time />
 *       <MilestoneTimeline.Data>{(d) => <code>{JSON.stringify(d)}</code>}</MilestoneTimeline.Data>
 *     </MilestoneTimeline.Item>
 *   )}
 * </MilestoneTimeline.Root>
 * <MilestoneTimeline.Announcer run={run} />
 * ```
 */
export const MilestoneTimeline = { Root, Item, Name, Time, Data, Announcer };
