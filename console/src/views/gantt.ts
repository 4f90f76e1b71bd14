// The Gantt: one canvas, one row per aircraft, bars on a time axis (d3-scale), zoom and pan on x
// (d3-zoom), vertical scrolling by the browser (the canvas is pinned in a scrolling box whose spacer is
// as tall as the rows). Each frame draws only the rows in view and, in them, only the bars that overlap
// the visible time range, so the cost of a frame does not grow with the schedule.
//
// Besides the flights it draws the disruptions: an aircraft out of service as a band on its row, an
// airport's capacity cap as a band pinned under the axis with the movements of each clock hour against
// the cap; and the time: the date, every local midnight and the current instant ("now").
//
// Keyboard: the canvas takes focus; arrows move between flights, Enter opens the focused flight,
// Shift+Enter its aircraft, + / - / 0 zoom. Hover and focus both report the flight to onFocusChange.
import { scaleUtc } from 'd3-scale';
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3-zoom';
import type { BarKind, FlightBar, GanttRow, MaintenanceBlock } from '../model/gantt-model.ts';
import { calendarDate, clock, HOUR_MS, midnights, UTC_ZONE, type DisplayZone } from '../model/time-axis.ts';

const LABEL_WIDTH = 178;
const AXIS_HEIGHT = 36;
const BAND_HEIGHT = 30;
const DAY_ROW_HEIGHT = 22;
const OPTION_ROW_HEIGHT = 44;
const MAX_ZOOM = 96;
const FONT = '12px system-ui, sans-serif';
const BOLD = `bold ${FONT}`;
const NOW_REFRESH_MS = 30_000;

/** Colours with at least 4.5:1 contrast for their white labels; each kind also has a pattern or mark. */
const FILL: Record<BarKind, string> = {
  planned: '#1f5f9e', delayed: '#9a4a00', swapped: '#5b2a86', cancelled: '#ffffff', new: '#00695c',
};

export type Lane = 'day' | 'before' | 'after';

/** Where a flight's bar is drawn, in CSS pixels of the canvas (y may lie outside the visible box). */
export interface BarGeometry {
  flight: string;
  tail: string;
  rowIndex: number;
  lane: Lane;
  kind: BarKind;
  /** The bar's full label; `shownLabel` is the variant that fits the bar ('' when none does). */
  label: string;
  shownLabel: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An aircraft out of service: a band on its row over [startMs, endMs). */
export interface UnavailablePeriod { tail: string; startMs: number; endMs: number }

/** An airport's cap drawn under the axis: each clock hour's movements against the cap. */
export interface CapacityBand {
  airport: string;
  hours: { startMs: number; departures: number; arrivals: number; maxDepartures: number; maxArrivals: number }[];
}

/** What the last frame drew, for the browser tests (shown nowhere). */
export interface FrameReport {
  labels: { flight: string; tail: string; lane: Lane; text: string; x: number; y: number; width: number; height: number }[];
  connectors: { flight: string; tail: string; x0: number; x1: number; y: number }[];
  unavailable: { tail: string; x: number; width: number; y: number; height: number }[];
  bands: { airport: string; y: number; height: number; hours: { startMs: number; x: number; width: number; departures: number; arrivals: number; over: boolean; text: string }[] }[];
  axis: { date: string; zone: string; midnights: { ms: number; px: number; label: string }[]; now: { ms: number; px: number } | null };
  /** The rows in view; `flagged`: those of them marked ⚠ (an option's violations, a live day's alerts). */
  rows: { first: number; last: number; tails: string[]; flagged: string[] };
}

export interface GanttEvents {
  onFlightActivate(bar: FlightBar, row: GanttRow): void;
  onRowActivate(row: GanttRow, atMs: number): void;
  /** The flight under the pointer (`hovered`) or, without one, the focused flight; null for neither. */
  onFocusChange(bar: FlightBar | null, row: GanttRow | null, hovered: boolean): void;
}

interface FocusPoint { row: number; bar: number }

export class Gantt {
  private rows: GanttRow[] = [];
  private optionMode = false;
  private domain: [number, number] = [0, 1];
  private transform: ZoomTransform = zoomIdentity;
  private zone: DisplayZone = UTC_ZONE;
  private disruptionMs: number | null = null;
  private highlighted = new Set<string>();
  private unavailable = new Map<string, UnavailablePeriod[]>();
  private bands: CapacityBand[] = [];
  private focus: FocusPoint | null = null;
  private hover: FocusPoint | null = null;
  private frameRequested = false;
  private width = 0;
  private height = 0;
  private frame: FrameReport | null = null;
  private readonly textWidths = new Map<string, number>();
  private readonly zoomBehavior: ZoomBehavior<HTMLCanvasElement, unknown>;
  private readonly patterns: Record<'hatch' | 'cross' | 'maintenance' | 'outOfService', CanvasPattern | null>;
  /** Called after every frame (the page refreshes what it shows about bar positions). */
  onDraw: (() => void) | null = null;

  constructor(private readonly scroller: HTMLElement, private readonly canvas: HTMLCanvasElement, private readonly spacer: HTMLElement, private readonly events: GanttEvents, private readonly now: () => number = Date.now) {
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('This browser cannot draw on a canvas.');
    this.patterns = {
      hatch: stripes(ctx, 'rgba(255,255,255,0.3)', 1), cross: stripes(ctx, 'rgba(90,90,90,0.35)', -1),
      maintenance: stripes(ctx, 'rgba(60,60,60,0.5)', 1), outOfService: stripes(ctx, 'rgba(176,0,32,0.45)', -1),
    };
    this.zoomBehavior = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([1, MAX_ZOOM])
      // Plain wheel scrolls the rows; Ctrl/⌘ + wheel zooms the time axis; dragging pans it.
      .filter((event: Event) => (event.type === 'wheel' ? (event as WheelEvent).ctrlKey || (event as WheelEvent).metaKey : !(event as MouseEvent).button))
      .on('zoom', (event: { transform: ZoomTransform }) => { this.transform = event.transform; this.requestDraw(); });
    select(canvas).call(this.zoomBehavior).on('dblclick.zoom', null);
    scroller.addEventListener('scroll', () => this.requestDraw(), { passive: true });
    new ResizeObserver(() => this.resize()).observe(scroller);
    canvas.addEventListener('mousemove', (e) => this.onPointer(e));
    canvas.addEventListener('mouseleave', () => { this.hover = null; this.report(); this.requestDraw(); });
    canvas.addEventListener('click', (e) => this.onClick(e));
    canvas.addEventListener('keydown', (e) => this.onKey(e));
    canvas.addEventListener('focus', () => { if (!this.focus) this.focusFirstVisible(); this.requestDraw(); });
    canvas.addEventListener('blur', () => this.requestDraw());
    // The "now" line moves: redraw now and then (a frame costs a few milliseconds).
    setInterval(() => this.requestDraw(), NOW_REFRESH_MS);
    this.resize();
  }

  setRows(rows: GanttRow[], optionMode: boolean, domain: [number, number]): void {
    const focusedFlight = this.focusedBar()?.flight;
    this.rows = rows;
    this.optionMode = optionMode;
    this.domain = domain;
    this.focus = null;
    this.hover = null;
    // Keep the keyboard on the same flight across a filter, a zone or a view change.
    if (focusedFlight) this.focus = this.locate(focusedFlight);
    this.updateSpacer();
    this.requestDraw();
  }

  setZone(zone: DisplayZone): void { this.zone = zone; this.requestDraw(); }
  setDisruptionTime(ms: number | null): void { this.disruptionMs = ms; this.requestDraw(); }
  setHighlighted(flights: Iterable<string>): void { this.highlighted = new Set(flights); this.requestDraw(); }

  /** The disruptions to draw: aircraft out of service on their rows, capacity caps as bands. */
  setDisruptions(unavailable: readonly UnavailablePeriod[], bands: readonly CapacityBand[]): void {
    this.unavailable = new Map();
    for (const period of unavailable) this.unavailable.set(period.tail, [...(this.unavailable.get(period.tail) ?? []), period]);
    this.bands = [...bands];
    this.updateSpacer();
    this.requestDraw();
  }

  zoomBy(factor: number): void { this.zoomBehavior.scaleBy(select(this.canvas), factor, [this.plotLeft() + this.plotWidth() / 2, 0]); }
  resetZoom(): void { this.zoomBehavior.transform(select(this.canvas), zoomIdentity); }

  /** Back to the first row (a new view starts at its top, not where the last one was scrolled). */
  scrollToTop(): void {
    this.scroller.scrollTop = 0;
    this.requestDraw();
  }

  /** Scroll and pan so that the flight's bar is in view; focus it when `focus`. */
  reveal(flight: string, focus = true): void {
    const point = this.locate(flight);
    if (!point) return;
    if (focus) this.focus = point;
    this.scrollIntoView(point);
    this.report();
    this.requestDraw();
  }

  /** Geometry of every bar of `flight` (a swapped flight has one bar in the after lane; a ghost one too). */
  geometry(flight: string): BarGeometry[] {
    const found: BarGeometry[] = [];
    this.rows.forEach((row, rowIndex) => {
      for (const lane of this.lanes()) {
        const bars = lane === 'after' ? row.after ?? [] : row.before;
        const bar = bars.find((b) => b.flight === flight);
        if (bar) found.push(this.barGeometry(bar, rowIndex, lane));
      }
    });
    return found;
  }

  /** Geometry of the focused bar (keyboard, a click or reveal), or null. */
  focusedGeometry(): BarGeometry | null {
    const bar = this.focusedBar();
    if (!bar || !this.focus) return null;
    return this.barGeometry(bar, this.focus.row, this.optionMode ? (this.focus.bar < 0 ? 'before' : 'after') : 'day');
  }

  /** The time scale in use: domain instants (ms) to canvas x (CSS px). For tests and the axis. */
  scaleInfo(): { domainStartMs: number; domainEndMs: number; rangeStart: number; rangeEnd: number } {
    const x = this.x();
    const [d0, d1] = x.domain();
    const [r0, r1] = x.range();
    return { domainStartMs: d0!.getTime(), domainEndMs: d1!.getTime(), rangeStart: r0!, rangeEnd: r1! };
  }

  /** What the last frame drew (labels, connectors, disruption bands, the axis), for the browser tests. */
  frameReport(): FrameReport | null { return this.frame; }

  // --- geometry -------------------------------------------------------------------------------------

  private rowHeight(): number { return this.optionMode ? OPTION_ROW_HEIGHT : DAY_ROW_HEIGHT; }
  private lanes(): Lane[] { return this.optionMode ? ['before', 'after'] : ['day']; }
  private plotLeft(): number { return LABEL_WIDTH; }
  private plotWidth(): number { return Math.max(10, this.width - LABEL_WIDTH - 8); }
  private viewportHeight(): number { return this.scroller.clientHeight; }
  /** The axis and the capacity bands pinned under it. */
  private headerHeight(): number { return AXIS_HEIGHT + this.bands.length * BAND_HEIGHT; }

  private updateSpacer(): void {
    this.spacer.style.height = `${Math.max(0, this.headerHeight() + this.rows.length * this.rowHeight() - this.viewportHeight())}px`;
  }

  private x() {
    const base = scaleUtc().domain([new Date(this.domain[0]), new Date(this.domain[1])]).range([this.plotLeft(), this.plotLeft() + this.plotWidth()]);
    return this.transform.rescaleX(base);
  }

  private rowTop(rowIndex: number): number { return this.headerHeight() + rowIndex * this.rowHeight() - this.scroller.scrollTop; }

  private laneBox(lane: Lane): { top: number; height: number } {
    if (lane === 'day') return { top: 3, height: DAY_ROW_HEIGHT - 6 };
    if (lane === 'before') return { top: 3, height: 15 };
    return { top: 20, height: OPTION_ROW_HEIGHT - 23 };
  }

  private box(bar: { depMs: number; arrMs: number }, rowIndex: number, lane: Lane) {
    const x = this.x();
    const left = x(bar.depMs);
    const { top, height } = this.laneBox(lane);
    return { x: left, y: this.rowTop(rowIndex) + top, width: Math.max(3, x(bar.arrMs) - left), height };
  }

  private barGeometry(bar: FlightBar, rowIndex: number, lane: Lane): BarGeometry {
    const box = this.box(bar, rowIndex, lane);
    return { flight: bar.flight, tail: this.rows[rowIndex]!.tail, rowIndex, lane, kind: bar.kind, label: barLabel(bar, lane), shownLabel: this.fittingLabel(bar, lane, box.width), ...box };
  }

  private resize(): void {
    const dpr = window.devicePixelRatio || 1;
    this.width = this.scroller.clientWidth;
    this.height = this.viewportHeight();
    this.canvas.width = Math.round(this.width * dpr);
    this.canvas.height = Math.round(this.height * dpr);
    this.canvas.style.width = `${this.width}px`;
    this.canvas.style.height = `${this.height}px`;
    const extent: [[number, number], [number, number]] = [[this.plotLeft(), 0], [this.plotLeft() + this.plotWidth(), this.height]];
    this.zoomBehavior.extent(extent).translateExtent(extent);
    this.setRows(this.rows, this.optionMode, this.domain);
  }

  // --- labels ---------------------------------------------------------------------------------------

  private textWidth(text: string): number {
    let width = this.textWidths.get(text);
    if (width === undefined) {
      const ctx = this.canvas.getContext('2d')!;
      ctx.font = FONT;
      width = ctx.measureText(text).width;
      this.textWidths.set(text, width);
    }
    return width;
  }

  /** The longest label variant that fits the bar whole: a flight number is never cut ('' when none fits). */
  private fittingLabel(bar: FlightBar, lane: Lane, width: number): string {
    for (const text of labelVariants(bar, lane)) if (this.textWidth(text) <= width - 6) return text;
    return '';
  }

  // --- drawing --------------------------------------------------------------------------------------

  requestDraw(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.draw();
    });
  }

  private draw(): void {
    const started = performance.now();
    const ctx = this.canvas.getContext('2d')!;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.width, this.height);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    const x = this.x();
    const frame: FrameReport = {
      labels: [], connectors: [], unavailable: [], bands: [],
      axis: { date: '', zone: this.zone.label, midnights: [], now: null }, rows: { first: 0, last: -1, tails: [], flagged: [] },
    };
    if (this.rows.length === 0) {
      ctx.fillStyle = '#4a4f57';
      ctx.fillText('No aircraft to show: enter the API key and load a schedule, or widen the filters.', 12, 24);
      this.finishFrame(frame, started);
      return;
    }
    const [visibleStart, visibleEnd] = [x.invert(this.plotLeft()).getTime(), x.invert(this.plotLeft() + this.plotWidth()).getTime()];
    const rowHeight = this.rowHeight();
    const header = this.headerHeight();
    const first = Math.max(0, Math.floor(this.scroller.scrollTop / rowHeight));
    const last = Math.min(this.rows.length - 1, Math.ceil((this.scroller.scrollTop + this.height - header) / rowHeight));
    const inView = this.rows.slice(first, last + 1);
    frame.rows = { first, last, tails: inView.map((r) => r.tail), flagged: inView.filter((r) => r.flags.length > 0).map((r) => r.tail) };
    const focused = this.focusedBar();
    const hovered = this.hover ? this.barAt(this.hover) : null;
    const ticks = this.ticks(x);
    const dayLines = midnights(visibleStart, visibleEnd, this.zone);

    ctx.save();
    ctx.beginPath();
    ctx.rect(0, header, this.width, this.height - header);
    ctx.clip();
    // Backgrounds, then the hour lines, then the bars: the lines never cross a bar.
    for (let rowIndex = first; rowIndex <= last; rowIndex++) {
      const top = this.rowTop(rowIndex);
      ctx.fillStyle = rowIndex % 2 ? '#f3f5f8' : '#ffffff';
      ctx.fillRect(0, top, this.width, rowHeight);
      if (this.rows[rowIndex]!.flags.length) { ctx.fillStyle = '#b00020'; ctx.fillRect(0, top, 5, rowHeight); }
    }
    ctx.strokeStyle = '#dde1e6';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const tick of ticks) { ctx.moveTo(tick.px, header); ctx.lineTo(tick.px, this.height); }
    ctx.stroke();
    this.drawMidnightLines(ctx, x, dayLines, header);
    for (let rowIndex = first; rowIndex <= last; rowIndex++) {
      const row = this.rows[rowIndex]!;
      const top = this.rowTop(rowIndex);
      ctx.save();
      ctx.beginPath();
      ctx.rect(this.plotLeft(), top, this.plotWidth() + 8, rowHeight);
      ctx.clip();
      for (const period of this.unavailable.get(row.tail) ?? []) {
        if (period.endMs > visibleStart && period.startMs < visibleEnd) this.drawUnavailable(ctx, period, rowIndex, frame);
      }
      for (const lane of this.lanes()) {
        const maintenance = lane === 'after' ? row.maintenanceAfter ?? [] : row.maintenance;
        for (const block of maintenance) if (block.endMs > visibleStart && block.startMs < visibleEnd) this.drawMaintenance(ctx, block, rowIndex, lane);
        const bars = lane === 'after' ? row.after ?? [] : row.before;
        // A delay's line from the scheduled departure runs under the bars, at the lane's foot, so
        // neither a bar nor a label is ever crossed by it.
        if (lane === 'after') for (const bar of bars) if (bar.kind === 'delayed' && bar.arrMs >= visibleStart && bar.depMs - bar.delayMinutes * 60_000 <= visibleEnd) this.drawDelayLine(ctx, bar, rowIndex, frame);
        // Ghosts first: a flight moved onto the time of a cancelled one is drawn over it.
        for (const ghosts of [true, false]) {
          for (const bar of bars) {
            if ((bar.kind === 'cancelled') !== ghosts || bar.arrMs < visibleStart || bar.depMs > visibleEnd) continue;
            this.drawBar(ctx, bar, rowIndex, lane, bar === focused || bar === hovered, frame);
          }
        }
      }
      ctx.restore();
      this.drawRowLabel(ctx, row, top, rowHeight);
    }
    ctx.restore();
    this.drawBands(ctx, x, visibleStart, visibleEnd, frame);
    this.drawAxis(ctx, ticks, x, visibleStart, dayLines, frame);
    this.drawDisruptionLine(ctx, x);
    this.drawNowLine(ctx, x, frame);
    this.finishFrame(frame, started);
  }

  private finishFrame(frame: FrameReport, started: number): void {
    this.frame = frame;
    this.onDraw?.();
    performance.measure('gantt-draw', { start: started });
  }

  private drawBar(ctx: CanvasRenderingContext2D, bar: FlightBar, rowIndex: number, lane: Lane, focused: boolean, frame: FrameReport): void {
    const { x, y, width, height } = this.box(bar, rowIndex, lane);
    const before = lane === 'before';
    ctx.globalAlpha = before ? 0.45 : 1;
    if (bar.kind === 'cancelled') {
      ctx.fillStyle = this.patterns.cross ?? '#eeeeee';
      ctx.fillRect(x, y, width, height);
      ctx.setLineDash([4, 3]);
      ctx.strokeStyle = '#555555';
      ctx.lineWidth = 1;
      ctx.strokeRect(x + 0.5, y + 0.5, width - 1, height - 1);
      ctx.setLineDash([]);
    } else {
      ctx.fillStyle = FILL[bar.kind];
      ctx.fillRect(x, y, width, height);
      if (bar.kind === 'swapped' && this.patterns.hatch) { ctx.fillStyle = this.patterns.hatch; ctx.fillRect(x, y, width, height); }
    }
    if (movementMark(bar) && !before) {
      // Actual times: a dark foot along the bar (a mark, not a colour) beside the label's ✓ / ✈.
      ctx.fillStyle = '#1a1a1a';
      ctx.fillRect(x, y + height - 3, width, 3);
    }
    if (this.highlighted.has(bar.flight) && !before) {
      ctx.globalAlpha = 1;
      ctx.lineWidth = 3;
      ctx.strokeStyle = '#ffbf00';
      ctx.strokeRect(x - 2, y - 2, width + 4, height + 4);
    }
    if (focused) {
      ctx.globalAlpha = 1;
      ctx.lineWidth = 2;
      ctx.strokeStyle = '#000000';
      ctx.strokeRect(x - 1, y - 1, width + 2, height + 2);
    }
    const label = this.fittingLabel(bar, lane, width);
    if (label) {
      // Before-lane labels are dark on the faded bar: white on a 45 % bar would not be readable.
      ctx.globalAlpha = 1;
      ctx.fillStyle = bar.kind === 'cancelled' || before ? '#1a1a1a' : '#ffffff';
      if (before) { ctx.fillStyle = '#ffffffb3'; ctx.fillRect(x + 1, y + 1, this.textWidth(label) + 4, height - 2); ctx.fillStyle = '#1a1a1a'; }
      ctx.fillText(label, x + 3, y + height / 2 + 0.5);
      frame.labels.push({ flight: bar.flight, tail: this.rows[rowIndex]!.tail, lane, text: label, x: x + 3, y, width: this.textWidth(label), height });
    }
    ctx.globalAlpha = 1;
  }

  private drawDelayLine(ctx: CanvasRenderingContext2D, bar: FlightBar, rowIndex: number, frame: FrameReport): void {
    const { x, y, height } = this.box(bar, rowIndex, 'after');
    const scheduledX = this.x()(bar.depMs - bar.delayMinutes * 60_000);
    const lineY = y + height - 1.5;
    ctx.strokeStyle = '#9a4a00';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(scheduledX, lineY);
    ctx.lineTo(x, lineY);
    ctx.stroke();
    // The scheduled departure: a short tick standing on the line.
    ctx.fillStyle = '#9a4a00';
    ctx.fillRect(scheduledX - 1, y + height - 7, 2, 7);
    frame.connectors.push({ flight: bar.flight, tail: this.rows[rowIndex]!.tail, x0: scheduledX, x1: x, y: lineY });
  }

  private drawMaintenance(ctx: CanvasRenderingContext2D, block: MaintenanceBlock, rowIndex: number, lane: Lane): void {
    const { x, y, width, height } = this.box({ depMs: block.startMs, arrMs: block.endMs }, rowIndex, lane);
    ctx.globalAlpha = lane === 'before' ? 0.45 : 1;
    ctx.fillStyle = '#d9d9d9';
    ctx.fillRect(x, y, width, height);
    if (this.patterns.maintenance) { ctx.fillStyle = this.patterns.maintenance; ctx.fillRect(x, y, width, height); }
    ctx.globalAlpha = 1;
    const label = `MX ${block.station}`;
    if (this.textWidth(label) <= width - 6) { ctx.fillStyle = '#1a1a1a'; ctx.fillText(label, x + 3, y + height / 2 + 0.5); }
  }

  private drawUnavailable(ctx: CanvasRenderingContext2D, period: UnavailablePeriod, rowIndex: number, frame: FrameReport): void {
    const x = this.x();
    const left = x(period.startMs);
    const width = Math.max(3, x(period.endMs) - left);
    const top = this.rowTop(rowIndex) + 1;
    const height = this.rowHeight() - 2;
    ctx.fillStyle = '#fbe9eb';
    ctx.fillRect(left, top, width, height);
    if (this.patterns.outOfService) { ctx.fillStyle = this.patterns.outOfService; ctx.fillRect(left, top, width, height); }
    ctx.strokeStyle = '#b00020';
    ctx.lineWidth = 1;
    ctx.strokeRect(left + 0.5, top + 0.5, width - 1, height - 1);
    frame.unavailable.push({ tail: period.tail, x: left, width, y: top, height });
  }

  private drawRowLabel(ctx: CanvasRenderingContext2D, row: GanttRow, top: number, rowHeight: number): void {
    ctx.fillStyle = '#1a1a1a';
    ctx.font = BOLD;
    ctx.fillText(row.tail, 9, top + (this.optionMode ? 11 : rowHeight / 2));
    ctx.font = FONT;
    ctx.fillStyle = '#444444';
    ctx.fillText(`${row.fleet} · ${row.base}`, 82, top + (this.optionMode ? 11 : rowHeight / 2));
    if (this.unavailable.has(row.tail)) { ctx.fillStyle = '#b00020'; ctx.fillText('OOS', 146, top + (this.optionMode ? 11 : rowHeight / 2)); }
    if (this.optionMode) {
      ctx.fillStyle = '#444444';
      ctx.fillText('before ↑', 9, top + 30);
      ctx.fillText('after ↓', 82, top + 30);
      if (row.flags.length) { ctx.fillStyle = '#b00020'; ctx.font = BOLD; ctx.fillText(`⚠ ${row.flags.length}`, 140, top + 30); ctx.font = FONT; }
    } else if (row.flags.length) {
      ctx.fillStyle = '#b00020';
      ctx.fillText('⚠', 165, top + rowHeight / 2);
    }
    ctx.strokeStyle = '#c8ccd2';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(this.plotLeft() - 0.5, top);
    ctx.lineTo(this.plotLeft() - 0.5, top + rowHeight);
    ctx.stroke();
  }

  /** Hour ticks in the displayed zone: shift the scale by the zone's offset, tick it, shift back. */
  private ticks(x: ReturnType<Gantt['x']>): { px: number; label: string }[] {
    const offsetMs = this.zone.offsetMinutes * 60_000;
    const [d0, d1] = x.domain();
    const shifted = scaleUtc().domain([new Date(d0!.getTime() + offsetMs), new Date(d1!.getTime() + offsetMs)]).range(x.range());
    return shifted.ticks(Math.max(2, Math.floor(this.plotWidth() / 70)))
      .map((tick) => ({ px: Math.round(shifted(tick)) + 0.5, label: clock(tick.getTime() - offsetMs, this.zone) }))
      .filter((tick) => tick.px >= this.plotLeft() && tick.px <= this.plotLeft() + this.plotWidth() + 8);
  }

  private drawMidnightLines(ctx: CanvasRenderingContext2D, x: ReturnType<Gantt['x']>, dayLines: number[], header: number): void {
    ctx.strokeStyle = '#1a1a1a';
    ctx.lineWidth = 2;
    ctx.beginPath();
    for (const ms of dayLines) { const px = Math.round(x(ms)); ctx.moveTo(px, header); ctx.lineTo(px, this.height); }
    ctx.stroke();
    ctx.lineWidth = 1;
  }

  private drawAxis(ctx: CanvasRenderingContext2D, ticks: { px: number; label: string }[], x: ReturnType<Gantt['x']>, visibleStart: number, dayLines: number[], frame: FrameReport): void {
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, this.width, AXIS_HEIGHT);
    ctx.strokeStyle = '#8a9099';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(0, AXIS_HEIGHT - 0.5);
    ctx.lineTo(this.width, AXIS_HEIGHT - 0.5);
    ctx.stroke();
    // The date of the left edge above the aircraft column, the zone under it.
    const date = calendarDate(visibleStart, this.zone);
    frame.axis.date = date;
    ctx.fillStyle = '#1a1a1a';
    ctx.font = BOLD;
    ctx.fillText(date, 9, 10);
    ctx.font = FONT;
    ctx.fillText(`Aircraft · time ${this.zone.label}`, 9, 26);
    ctx.save();
    ctx.beginPath();
    ctx.rect(this.plotLeft(), 0, this.plotWidth() + 8, AXIS_HEIGHT);
    ctx.clip();
    for (const tick of ticks) {
      ctx.beginPath();
      ctx.moveTo(tick.px, AXIS_HEIGHT - 6);
      ctx.lineTo(tick.px, AXIS_HEIGHT);
      ctx.stroke();
      ctx.fillText(tick.label, tick.px + 3, 26);
    }
    // Each midnight: a heavy tick across the axis and the new date written beside it.
    ctx.font = BOLD;
    for (const ms of dayLines) {
      const px = Math.round(x(ms));
      const label = calendarDate(ms, this.zone);
      ctx.fillRect(px - 1, 0, 2, AXIS_HEIGHT);
      ctx.fillText(label, px + 4, 10);
      frame.axis.midnights.push({ ms, px: x(ms), label });
    }
    ctx.font = FONT;
    ctx.restore();
  }

  private drawBands(ctx: CanvasRenderingContext2D, x: ReturnType<Gantt['x']>, visibleStart: number, visibleEnd: number, frame: FrameReport): void {
    this.bands.forEach((band, index) => {
      const top = AXIS_HEIGHT + index * BAND_HEIGHT;
      ctx.fillStyle = '#fff8e1';
      ctx.fillRect(0, top, this.width, BAND_HEIGHT);
      ctx.strokeStyle = '#8a9099';
      ctx.beginPath();
      ctx.moveTo(0, top + BAND_HEIGHT - 0.5);
      ctx.lineTo(this.width, top + BAND_HEIGHT - 0.5);
      ctx.stroke();
      ctx.fillStyle = '#1a1a1a';
      ctx.font = BOLD;
      ctx.fillText(`${band.airport} capacity`, 9, top + 9);
      ctx.font = FONT;
      ctx.fillText('dep / arr per hour', 9, top + 22);
      const reported: FrameReport['bands'][number] = { airport: band.airport, y: top, height: BAND_HEIGHT, hours: [] };
      ctx.save();
      ctx.beginPath();
      ctx.rect(this.plotLeft(), top, this.plotWidth() + 8, BAND_HEIGHT);
      ctx.clip();
      for (const hour of band.hours) {
        if (hour.startMs + HOUR_MS < visibleStart || hour.startMs > visibleEnd) continue;
        const left = x(hour.startMs);
        const width = x(hour.startMs + HOUR_MS) - left;
        const over = hour.departures > hour.maxDepartures || hour.arrivals > hour.maxArrivals;
        ctx.fillStyle = over ? '#fbe9eb' : '#e8f5e9';
        ctx.fillRect(left + 1, top + 2, width - 2, BAND_HEIGHT - 4);
        if (over && this.patterns.outOfService) { ctx.fillStyle = this.patterns.outOfService; ctx.fillRect(left + 1, top + 2, width - 2, BAND_HEIGHT - 4); }
        ctx.strokeStyle = over ? '#b00020' : '#1b5e20';
        ctx.strokeRect(left + 1.5, top + 2.5, width - 3, BAND_HEIGHT - 5);
        // Movements over the cap, with ⚠ when over: "8/6 · 14/6 ⚠", shortened as the hour narrows.
        const full = `${hour.departures}/${hour.maxDepartures} · ${hour.arrivals}/${hour.maxArrivals}${over ? ' ⚠' : ''}`;
        const text = [full, `${hour.departures}·${hour.arrivals}${over ? '⚠' : ''}`, over ? '⚠' : ''].find((t) => this.textWidth(t) <= width - 8) ?? '';
        if (text) { ctx.fillStyle = over ? '#7a0016' : '#1b5e20'; ctx.fillText(text, left + 4, top + BAND_HEIGHT / 2); }
        reported.hours.push({ startMs: hour.startMs, x: left, width, departures: hour.departures, arrivals: hour.arrivals, over, text });
      }
      ctx.restore();
      frame.bands.push(reported);
    });
  }

  private drawDisruptionLine(ctx: CanvasRenderingContext2D, x: ReturnType<Gantt['x']>): void {
    if (this.disruptionMs === null) return;
    const px = Math.round(x(this.disruptionMs)) + 0.5;
    if (px < this.plotLeft() || px > this.plotLeft() + this.plotWidth()) return;
    ctx.strokeStyle = '#b00020';
    ctx.lineWidth = 2;
    ctx.setLineDash([6, 3]);
    ctx.beginPath();
    ctx.moveTo(px, AXIS_HEIGHT);
    ctx.lineTo(px, this.height);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.lineWidth = 1;
  }

  private drawNowLine(ctx: CanvasRenderingContext2D, x: ReturnType<Gantt['x']>, frame: FrameReport): void {
    const nowMs = this.now();
    const px = Math.round(x(nowMs)) + 0.5;
    if (px < this.plotLeft() || px > this.plotLeft() + this.plotWidth()) return;
    ctx.strokeStyle = '#00695c';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(px, AXIS_HEIGHT - 14);
    ctx.lineTo(px, this.height);
    ctx.stroke();
    ctx.lineWidth = 1;
    const label = `now ${clock(nowMs, this.zone)}`;
    ctx.fillStyle = '#00695c';
    ctx.fillRect(px, AXIS_HEIGHT - 15, this.textWidth(label) + 8, 14);
    ctx.fillStyle = '#ffffff';
    ctx.fillText(label, px + 4, AXIS_HEIGHT - 8);
    frame.axis.now = { ms: nowMs, px: x(nowMs) };
  }

  // --- pointer and keyboard -------------------------------------------------------------------------

  private pointAt(clientX: number, clientY: number): { row: number; lane: Lane; ms: number } | null {
    const rect = this.canvas.getBoundingClientRect();
    const px = clientX - rect.left;
    const py = clientY - rect.top;
    if (py < this.headerHeight()) return null;
    const row = Math.floor((py - this.headerHeight() + this.scroller.scrollTop) / this.rowHeight());
    if (row < 0 || row >= this.rows.length) return null;
    const within = py - this.rowTop(row);
    const lane: Lane = this.optionMode ? (within < 19 ? 'before' : 'after') : 'day';
    return { row, lane, ms: px < this.plotLeft() ? Number.NaN : this.x().invert(px).getTime() };
  }

  private hit(clientX: number, clientY: number): FocusPoint | null {
    const point = this.pointAt(clientX, clientY);
    if (!point || Number.isNaN(point.ms)) return null;
    const row = this.rows[point.row]!;
    const bars = point.lane === 'after' ? row.after ?? [] : row.before;
    const slackMs = this.x().invert(this.plotLeft() + 3).getTime() - this.x().invert(this.plotLeft()).getTime();
    const index = bars.findIndex((b) => b.depMs - slackMs <= point.ms && point.ms <= Math.max(b.arrMs, b.depMs + slackMs));
    return index < 0 ? null : { row: point.row, bar: point.lane === 'before' ? -1 - index : index };
  }

  private onPointer(event: MouseEvent): void {
    const hit = this.hit(event.clientX, event.clientY);
    if (hit?.row === this.hover?.row && hit?.bar === this.hover?.bar) return;
    this.hover = hit;
    this.canvas.style.cursor = hit ? 'pointer' : 'grab';
    this.report();
    this.requestDraw();
  }

  private onClick(event: MouseEvent): void {
    const hit = this.hit(event.clientX, event.clientY);
    if (hit) {
      this.focus = hit;
      this.report();
      this.requestDraw();
      const bar = this.barAt(hit);
      if (bar && bar.kind !== 'new') this.events.onFlightActivate(bar, this.rows[hit.row]!);
      return;
    }
    const point = this.pointAt(event.clientX, event.clientY);
    if (point) this.events.onRowActivate(this.rows[point.row]!, Number.isNaN(point.ms) ? this.disruptionMs ?? this.domain[0] : point.ms);
  }

  private onKey(event: KeyboardEvent): void {
    const handled = this.handleKey(event);
    if (handled) event.preventDefault();
  }

  private handleKey(event: KeyboardEvent): boolean {
    switch (event.key) {
      case '+': case '=': this.zoomBy(1.5); return true;
      case '-': case '_': this.zoomBy(1 / 1.5); return true;
      case '0': this.resetZoom(); return true;
      case 'PageDown': this.scroller.scrollTop += this.height - this.headerHeight(); return true;
      case 'PageUp': this.scroller.scrollTop -= this.height - this.headerHeight(); return true;
      case 'ArrowRight': case 'ArrowLeft': return this.moveFocus(0, event.key === 'ArrowRight' ? 1 : -1);
      case 'ArrowDown': case 'ArrowUp': return this.moveFocus(event.key === 'ArrowDown' ? 1 : -1, 0);
      case 'Enter': case ' ': {
        const bar = this.focusedBar();
        if (!this.focus || !bar) return false;
        const row = this.rows[this.focus.row]!;
        if (event.shiftKey) this.events.onRowActivate(row, bar.depMs);
        else if (bar.kind !== 'new') this.events.onFlightActivate(bar, row);
        return true;
      }
      default: return false;
    }
  }

  private laneBars(point: FocusPoint): FlightBar[] {
    const row = this.rows[point.row]!;
    return point.bar < 0 ? row.before : this.optionMode ? row.after ?? [] : row.before;
  }

  private barAt(point: FocusPoint): FlightBar | null {
    const bars = this.laneBars(point);
    return bars[point.bar < 0 ? -1 - point.bar : point.bar] ?? null;
  }

  private focusedBar(): FlightBar | null { return this.focus ? this.barAt(this.focus) : null; }

  private mainLane(row: GanttRow): FlightBar[] { return this.optionMode ? row.after ?? [] : row.before; }

  private moveFocus(rowStep: number, barStep: number): boolean {
    if (!this.focus) { this.focusFirstVisible(); return true; }
    const current = this.focusedBar();
    if (!current) return false;
    if (barStep !== 0) {
      const bars = this.laneBars(this.focus);
      const index = this.focus.bar < 0 ? -1 - this.focus.bar : this.focus.bar;
      const next = index + barStep;
      if (next < 0 || next >= bars.length) return true;
      this.focus = { row: this.focus.row, bar: this.focus.bar < 0 ? -1 - next : next };
    } else {
      let rowIndex = this.focus.row + rowStep;
      while (rowIndex >= 0 && rowIndex < this.rows.length && this.mainLane(this.rows[rowIndex]!).length === 0) rowIndex += rowStep;
      if (rowIndex < 0 || rowIndex >= this.rows.length) return true;
      const bars = this.mainLane(this.rows[rowIndex]!);
      let nearest = 0;
      bars.forEach((b, i) => { if (Math.abs(b.depMs - current.depMs) < Math.abs(bars[nearest]!.depMs - current.depMs)) nearest = i; });
      this.focus = { row: rowIndex, bar: nearest };
    }
    this.scrollIntoView(this.focus);
    this.report();
    this.requestDraw();
    return true;
  }

  private focusFirstVisible(): void {
    const rowHeight = this.rowHeight();
    const visibleStart = this.x().invert(this.plotLeft()).getTime();
    for (let rowIndex = Math.floor(this.scroller.scrollTop / rowHeight); rowIndex < this.rows.length; rowIndex++) {
      const bars = this.mainLane(this.rows[rowIndex]!);
      const index = bars.findIndex((b) => b.arrMs >= visibleStart);
      if (index >= 0) { this.focus = { row: rowIndex, bar: index }; break; }
    }
    this.report();
  }

  private locate(flight: string): FocusPoint | null {
    for (let row = 0; row < this.rows.length; row++) {
      const index = this.mainLane(this.rows[row]!).findIndex((b) => b.flight === flight);
      if (index >= 0) return { row, bar: index };
    }
    return null;
  }

  private scrollIntoView(point: FocusPoint): void {
    const rowHeight = this.rowHeight();
    const top = point.row * rowHeight;
    const visible = this.height - this.headerHeight();
    if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
    else if (top + rowHeight > this.scroller.scrollTop + visible) this.scroller.scrollTop = top + rowHeight - visible;
    const bar = this.barAt(point);
    if (!bar) return;
    const x = this.x();
    if (x(bar.depMs) < this.plotLeft() || x(bar.arrMs) > this.plotLeft() + this.plotWidth()) {
      // translateTo centres a point of the untransformed content; the y coordinate is unused.
      this.zoomBehavior.translateTo(select(this.canvas), this.transform.invertX(x(bar.depMs)), 0);
    }
  }

  private report(): void {
    const point = this.hover ?? this.focus;
    this.events.onFocusChange(point ? this.barAt(point) : null, point ? this.rows[point.row]! : null, this.hover !== null);
  }
}

/** The text on a bar: the flight number and what changed, so no meaning rests on colour alone. */
export function barLabel(bar: FlightBar, lane: Lane = 'after'): string {
  return labelVariants(bar, lane)[0]!;
}

/**
 * A bar's labels from the fullest to the shortest, each whole: the bar shows the first that fits, so a
 * flight number is written in full or not at all (the tooltip and details panel name every flight).
 */
export function labelVariants(bar: FlightBar, lane: Lane): string[] {
  const number = bar.flight.split('_')[0] ?? bar.flight;
  if (lane === 'before') return [number];
  // A live day's flight with actual times says so first: ✓ on block, ✈ off block and not yet on block.
  const mark = movementMark(bar);
  return mark ? [...kindVariants(bar, number).map((text) => `${mark} ${text}`), mark] : kindVariants(bar, number);
}

/** ✓ for a flight on block, ✈ for one that has left and is not on block yet, '' otherwise. */
export function movementMark(bar: FlightBar): string {
  if (!bar.live || bar.live.offBlockMs === null || bar.kind === 'cancelled') return '';
  return bar.live.onBlockMs !== null ? '✓' : '✈';
}

function kindVariants(bar: FlightBar, number: string): string[] {
  switch (bar.kind) {
    case 'delayed': return [`${number} +${bar.delayMinutes}m`, `+${bar.delayMinutes}m`];
    case 'swapped': return [`⇄ ${number} from ${bar.plannedTail}${bar.delayMinutes > 0 ? ` +${bar.delayMinutes}m` : ''}`, `⇄ ${number}`, '⇄'];
    case 'cancelled': return [`✕ ${number} cancelled`, `✕ ${number}`, '✕'];
    case 'new': return [`ferry ${bar.origin}-${bar.dest}`, 'ferry'];
    default: return [`${number} ${bar.origin}-${bar.dest}`, number];
  }
}

/** A diagonal stripe pattern (direction 1 = /, -1 = \). */
function stripes(ctx: CanvasRenderingContext2D, colour: string, direction: 1 | -1): CanvasPattern | null {
  const tile = document.createElement('canvas');
  tile.width = 8;
  tile.height = 8;
  const t = tile.getContext('2d');
  if (!t) return null;
  t.strokeStyle = colour;
  t.lineWidth = 2;
  t.beginPath();
  if (direction === 1) { t.moveTo(0, 8); t.lineTo(8, 0); t.moveTo(-2, 2); t.lineTo(2, -2); t.moveTo(6, 10); t.lineTo(10, 6); }
  else { t.moveTo(0, 0); t.lineTo(8, 8); t.moveTo(6, -2); t.lineTo(10, 2); t.moveTo(-2, 6); t.lineTo(2, 10); }
  t.stroke();
  return ctx.createPattern(tile, 'repeat');
}
