/**
 * `MilestoneTimeline`: the milestones a run reached, as an ordered list with the latest marked
 * `aria-current="step"`, expected ones shown as upcoming, and a polite live region for new milestones.
 * `Root` holds the milestones (it renders no element, like Radix's Dialog.Root); `List` is the `<ol>`.
 */
import type { AgentToolMilestone, AgentToolRunState } from "@runboard/protocol";
import {
  milestoneAnnouncement,
  type TimelineItem,
  timelineItems,
  unseenMilestones,
  valueText,
} from "@runboard/protocol/view";
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from "react";
import { useLatest } from "../lifetime.ts";
import {
  type AnnouncerProps,
  createPartContext,
  dataFlag,
  type PrimitiveProps,
  renderAnnouncer,
  renderPart,
  useHydrated,
  usePartContext,
} from "../primitives/index.ts";

const NO_MILESTONES: readonly AgentToolMilestone[] = Object.freeze([]);

interface TimelineContextValue {
  milestones: readonly AgentToolMilestone[];
  items: TimelineItem[];
}
const TimelineContext = createPartContext<TimelineContextValue>("MilestoneTimeline.Root");
const ItemContext = createContext<TimelineItem | null>(null);
ItemContext.displayName = "MilestoneTimeline.ItemContext";

/** Props of `MilestoneTimeline.Root`. */
export interface MilestoneTimelineRootProps {
  /** The run whose milestones to show (and its `omittedMilestones`). */
  run?: Pick<AgentToolRunState, "milestones" | "omittedMilestones">;
  /** Milestones to show, when not taken from `run`. */
  milestones?: readonly AgentToolMilestone[];
  /**
   * Earlier milestones reached but not in the list (a run keeps its newest `maxMilestones`): shown as one
   * first entry, `data-status="omitted"`. Default the run's `omittedMilestones`.
   */
  omitted?: number;
  /** Names the run is expected to reach, in order; those not reached show as upcoming steps. */
  expected?: readonly string[];
  /** The list, the announcer, and anything around them. */
  children?: ReactNode;
}

/** Holds the milestones for the parts inside; renders no element of its own. */
function Root({ run, milestones, expected, omitted, children }: MilestoneTimelineRootProps) {
  const list = milestones ?? run?.milestones ?? NO_MILESTONES;
  const earlier = omitted ?? (milestones ? 0 : (run?.omittedMilestones ?? 0));
  const value: TimelineContextValue = { milestones: list, items: timelineItems(list, expected, earlier) };
  return <TimelineContext.Context.Provider value={value}>{children}</TimelineContext.Context.Provider>;
}
Root.displayName = "MilestoneTimeline.Root";

/** Props of `MilestoneTimeline.List`. */
export interface MilestoneTimelineListProps extends Omit<PrimitiveProps<"ol">, "children"> {
  /**
   * One entry per step, rendered inside that step's scope: nodes, or a function of the step. Default
   * `<MilestoneTimeline.Item />` (its name and time).
   */
  children?: ReactNode | ((item: TimelineItem) => ReactNode);
}

const defaultEntry = () => <Item />;

/**
 * The ordered list (`<ol>`): the count of earlier milestones not kept (when there are), reached milestones by
 * sequence, then upcoming ones. `data-count` = reached milestones in the list.
 */
function List({ children = defaultEntry, ...props }: MilestoneTimelineListProps) {
  const { milestones, items } = usePartContext(TimelineContext, "MilestoneTimeline.List");
  return renderPart("ol", {
    "data-rb-part": "MilestoneTimeline.List",
    "data-count": milestones.length,
    children: items.map((item) => (
      <ItemContext.Provider key={item.key} value={item}>
        {typeof children === "function" ? children(item) : children}
      </ItemContext.Provider>
    )),
    ...props,
  });
}
List.displayName = "MilestoneTimeline.List";

function useItem(part: string): TimelineItem {
  const item = useContext(ItemContext);
  if (item === null)
    throw new Error(
      `<${part}> must be rendered inside <MilestoneTimeline.List>. Wrap it in <MilestoneTimeline.List>.`,
    );
  return item;
}

/** The step of the current list entry, for parts of your own. Throws outside `MilestoneTimeline.List`. */
export function useMilestoneTimelineItem(): TimelineItem {
  return useItem("useMilestoneTimelineItem");
}

/** Props of `MilestoneTimeline.Item`. */
export interface MilestoneTimelineItemProps extends PrimitiveProps<"li"> {
  /** The step to show; default the one of the surrounding `MilestoneTimeline.List` entry. */
  item?: TimelineItem;
}

/**
 * One step (`<li>`): `data-status` `reached | upcoming | omitted`, `data-name`, and `aria-current="step"` with
 * `data-current` on the latest. Without children it shows the step's name and time. The omitted entry (earlier
 * milestones the run no longer keeps) has `data-count` and is named `<count> earlier milestones`.
 */
function Item({ item: own, children, ...props }: MilestoneTimelineItemProps) {
  const scoped = useContext(ItemContext);
  const item = own ?? scoped;
  if (item === null)
    throw new Error(
      "<MilestoneTimeline.Item> must be rendered inside <MilestoneTimeline.List>, or be given an item.",
    );
  const li = renderPart("li", {
    "data-rb-part": "MilestoneTimeline.Item",
    "aria-current": item.current ? "step" : undefined,
    "data-status": item.status,
    "data-current": dataFlag(item.current),
    "data-name": item.name,
    "data-count": item.status === "omitted" ? item.count : undefined,
    children: children ?? (
      <>
        <Name /> <Time />
      </>
    ),
    ...props,
  });
  // An explicit item is the scope of the parts inside it too.
  return item === scoped ? li : <ItemContext.Provider value={item}>{li}</ItemContext.Provider>;
}
Item.displayName = "MilestoneTimeline.Item";

/** Props of `MilestoneTimeline.Name`. */
export type MilestoneTimelineNameProps = PrimitiveProps<"span">;

/** The milestone's name. */
function Name(props: MilestoneTimelineNameProps) {
  const item = useItem("MilestoneTimeline.Name");
  return renderPart("span", { "data-rb-part": "MilestoneTimeline.Name", children: item.name, ...props });
}
Name.displayName = "MilestoneTimeline.Name";

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
  const item = useItem("MilestoneTimeline.Time");
  const hydrated = useHydrated();
  if (item.status !== "reached") return null;
  const at = item.milestone.at;
  const iso = new Date(at).toISOString();
  return renderPart("time", {
    "data-rb-part": "MilestoneTimeline.Time",
    dateTime: iso,
    children: hydrated ? format(at) : iso,
    ...props,
  });
}
Time.displayName = "MilestoneTimeline.Time";

/** Props of `MilestoneTimeline.Data`. */
export interface MilestoneTimelineDataProps extends Omit<PrimitiveProps<"div">, "children"> {
  /** Renders the milestone's `data`. Default: the data as text (JSON), never as HTML. */
  children?: (data: unknown, milestone: AgentToolMilestone) => ReactNode;
}

/** The milestone's data, through a render prop; nothing for upcoming steps or milestones without data. */
function Data({ children, ...props }: MilestoneTimelineDataProps) {
  const item = useItem("MilestoneTimeline.Data");
  if (item.status !== "reached" || item.milestone.data === undefined) return null;
  const { data } = item.milestone;
  return renderPart("div", {
    "data-rb-part": "MilestoneTimeline.Data",
    children: children ? children(data, item.milestone) : valueText(data),
    ...props,
  });
}
Data.displayName = "MilestoneTimeline.Data";

/** Props of `MilestoneTimeline.Announcer`. */
export interface MilestoneTimelineAnnouncerProps extends AnnouncerProps {
  /** The run whose milestones to announce; default the root's. */
  run?: Pick<AgentToolRunState, "milestones">;
  /** Milestones to announce, when not taken from `run` or the root. */
  milestones?: readonly AgentToolMilestone[];
  /** The sentence for milestones that just landed. Default `Milestone reached: <name>`. */
  format?: (fresh: readonly AgentToolMilestone[]) => string;
}

/**
 * A visually hidden polite live region (`role="status"`) that speaks when a new milestone lands. Milestones
 * present when it mounts are history and are not announced; progress ticks never are. Render it beside the
 * list (inside `Root`, or on its own with `run` or `milestones`), not inside the `<ol>`.
 */
function Announcer({
  run,
  milestones,
  format = milestoneAnnouncement,
  ...props
}: MilestoneTimelineAnnouncerProps) {
  const root = useContext(TimelineContext.Context);
  const list = milestones ?? run?.milestones ?? root?.milestones ?? NO_MILESTONES;
  const seen = useRef<Set<number> | null>(null);
  if (seen.current === null) seen.current = new Set(list.map((m) => m.sequence));
  const [message, setMessage] = useState("");
  const formatRef = useLatest(format);
  useEffect(() => {
    let known = seen.current as Set<number>;
    const fresh = unseenMilestones(known, list);
    if (fresh.length === 0) return;
    for (const m of fresh) known.add(m.sequence);
    // A run keeps its newest milestones only: what left the list never comes back, so it is forgotten here
    // too, and the set stays the size of the list over a run of any length.
    if (known.size > 2 * list.length + 64) {
      known = new Set(list.map((m) => m.sequence));
      seen.current = known;
    }
    setMessage(formatRef.current(fresh));
  }, [list, formatRef]);
  return renderAnnouncer(message, { "data-rb-part": "MilestoneTimeline.Announcer", ...props });
}
Announcer.displayName = "MilestoneTimeline.Announcer";

/**
 * The milestones a run reached, in order.
 *
 * @example
 * ```tsx
 * <MilestoneTimeline.Root run={run} expected={["sources-gathered", "draft", "review"]}>
 *   <MilestoneTimeline.List aria-label="Milestones">
 *     <MilestoneTimeline.Item>
 *       <MilestoneTimeline.Name /> <MilestoneTimeline.Time />
 *       <MilestoneTimeline.Data>{(d) => <code>{JSON.stringify(d)}</code>}</MilestoneTimeline.Data>
 *     </MilestoneTimeline.Item>
 *   </MilestoneTimeline.List>
 *   <MilestoneTimeline.Announcer />
 * </MilestoneTimeline.Root>
 * ```
 */
export const MilestoneTimeline = { Root, List, Item, Name, Time, Data, Announcer };
