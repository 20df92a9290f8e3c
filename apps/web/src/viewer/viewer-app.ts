import { DEFAULT_DATE_FORMAT, type DateFormat } from '@imaging-inbox/contract';
import { formatDicomDate, formatPatientName } from '../lib/format';
import { t } from '../lib/i18n';
import type { ParentCredential } from './credential';
import type { SeriesInfo, StudyInfo, ViewerDicomweb } from './dicomweb';
import { seriesButton, type ViewerLayout } from './layout';
import { currentWindow, presetWindow, renderSlice, type DecodedSlice, type Window } from './slice';
import { SliceStore } from './slice-store';
import type { Stage } from './stage';

type Mode = 'wl' | 'pan' | 'zoom';
const CINE_FPS = 15;

/**
 * The viewer's behaviour: which series and slice are on screen, the shared window, interaction
 * (wheel, keys, slider, drag for window/level, pan and zoom), cine and the overlay.
 */
export class ViewerApp {
  private series: SeriesInfo[] = [];
  private store: SliceStore | undefined;
  private seriesIndex = -1;
  private index = 0;
  private frame = 0;
  private slice: DecodedSlice | undefined;
  private window: Window | undefined;
  private mode: Mode = 'wl';
  private cine: number | undefined;
  private showSeq = 0;
  private study: StudyInfo | undefined;
  private readonly seriesButtons: HTMLButtonElement[] = [];

  constructor(
    private readonly ui: ViewerLayout,
    private readonly stage: Stage,
    private readonly client: ViewerDicomweb,
    private readonly credential: ParentCredential,
    private readonly dateFormat: DateFormat = DEFAULT_DATE_FORMAT,
  ) {
    this.bind();
  }

  async start(): Promise<void> {
    this.status(t('Loading…'));
    const [series, study] = await Promise.all([this.client.series(), this.client.study()]);
    this.series = series;
    this.study = study;
    if (!series.length) return this.status(t('This study has no images to show.'));
    const images: HTMLImageElement[] = [];
    for (const [i, s] of series.entries()) {
      const { button, image } = seriesButton(s.description || `${s.modality} series ${s.number}`, s.count);
      button.addEventListener('click', () => void this.openSeries(i));
      this.ui.seriesList.append(button);
      this.seriesButtons.push(button);
      images.push(image);
    }
    await this.openSeries(0);
    // Thumbnails load once the first image is on screen, so they never compete with it.
    for (const [i, s] of series.entries()) {
      this.client.thumbnail(s.uid).then(
        (url) => (images[i]!.src = url),
        () => (images[i]!.alt = t('no preview')),
      );
    }
  }

  async openSeries(i: number): Promise<void> {
    if (i === this.seriesIndex) return;
    this.stopCine();
    this.store?.dispose();
    this.seriesIndex = i;
    this.seriesButtons.forEach((b, n) => b.setAttribute('aria-current', String(n === i)));
    const instances = await this.client.instances(this.series[i]!.uid);
    this.store = new SliceStore(this.client, this.series[i]!.uid, instances);
    this.window = undefined;
    this.slice = undefined;
    this.ui.slider.max = String(Math.max(0, instances.length - 1));
    document.body.dataset['instancesTotal'] = String(instances.length);
    await this.show(0);
  }

  /** Shows slice `i` of the open series (fetched if needed), then prefetches around it. */
  async show(i: number, frame = 0): Promise<void> {
    const store = this.store;
    if (!store || !store.length) return;
    const index = Math.min(Math.max(0, i), store.length - 1);
    const seq = ++this.showSeq;
    this.index = index;
    this.ui.slider.value = String(index);
    if (!store.has(index)) this.status(t('Loading…'));
    let slice: DecodedSlice;
    try {
      slice = await store.get(index);
    } catch (error) {
      if (seq === this.showSeq)
        this.status(t('This image cannot be shown ({{reason}}).', { reason: String(error) }));
      return;
    }
    if (seq !== this.showSeq || store !== this.store) return;
    this.slice = slice;
    this.frame = Math.min(frame, slice.frames - 1);
    if (!this.window) {
      this.window = currentWindow(slice);
      this.fillPresets(slice);
    }
    this.render();
    this.status('');
    store.prefetch(index);
    if (!document.body.dataset['firstImageMs']) {
      document.body.dataset['firstImageMs'] = String(Math.round(performance.now()));
    }
    document.body.dataset['sliceIndex'] = String(index);
    document.body.dataset['ready'] = '1';
  }

  private render(): void {
    const slice = this.slice;
    if (!slice) return;
    renderSlice(slice, this.frame, this.window, this.stage.buffer(slice.width, slice.height));
    this.stage.commit();
    this.updateOverlay();
    document.body.dataset['instancesFetched'] = String(this.client.instancesFetched);
  }

  private step(delta: number): void {
    if (this.slice && this.slice.frames > 1 && (this.store?.length ?? 0) === 1) {
      this.frame = (this.frame + delta + this.slice.frames) % this.slice.frames;
      this.render();
    } else {
      void this.show(this.index + delta);
    }
  }

  private fillPresets(slice: DecodedSlice): void {
    const names = slice.monochrome ? slice.presets : [];
    this.ui.presets.replaceChildren(
      new Option(t('Window presets'), ''),
      ...names.map((name) => new Option(name === 'Default0' ? t('File default') : name, name)),
    );
    this.ui.presets.disabled = names.length === 0;
  }

  private resetView(): void {
    if (this.slice) {
      this.slice.view.setWindowLevelPresetById(0, true);
      this.window = currentWindow(this.slice);
    }
    this.ui.presets.value = '';
    this.stage.reset();
    this.render();
  }

  private toggleCine(): void {
    if (this.cine !== undefined) return this.stopCine();
    this.ui.play.textContent = t('Pause');
    this.cine = window.setInterval(() => {
      if (this.slice && this.slice.frames > 1) {
        this.frame = (this.frame + 1) % this.slice.frames;
        this.render();
      } else if (this.store) {
        // Wait for the next slice rather than skipping it, so playback never shows gaps.
        const next = (this.index + 1) % this.store.length;
        if (this.store.has(next)) void this.show(next);
        else void this.store.get(next);
      }
    }, 1000 / CINE_FPS);
  }

  private stopCine(): void {
    if (this.cine !== undefined) window.clearInterval(this.cine);
    this.cine = undefined;
    this.ui.play.textContent = t('Play');
  }

  private setMode(mode: Mode): void {
    this.mode = mode;
    for (const [name, button] of Object.entries(this.ui.modes)) {
      button.setAttribute('aria-pressed', String(name === mode));
    }
  }

  private status(message: string): void {
    this.ui.status.textContent = message;
  }

  private updateOverlay(): void {
    const study = this.study;
    const series = this.series[this.seriesIndex];
    const lines = (...values: (string | undefined)[]) => values.filter(Boolean).join('\n');
    this.ui.overlay.topLeft.textContent = lines(
      study?.patientName && formatPatientName(study.patientName),
      study?.patientId && `ID ${study.patientId}`,
      [study?.birthDate && formatDicomDate(study.birthDate, this.dateFormat), study?.sex]
        .filter(Boolean)
        .join(' '),
    );
    this.ui.overlay.topRight.textContent = lines(
      study?.description,
      study?.date && formatDicomDate(study.date, this.dateFormat),
      study?.accession && `Acc ${study.accession}`,
      series && `${series.modality} #${series.number} ${series.description}`,
    );
    const total = this.store?.length ?? 0;
    const frames =
      this.slice && this.slice.frames > 1
        ? ` ${t('frame {{n}}/{{total}}', { n: this.frame + 1, total: this.slice.frames })}`
        : '';
    this.ui.overlay.bottomLeft.textContent = `${t('Image {{n}}/{{total}}', { n: this.index + 1, total })}${frames}`;
    const w = this.window;
    this.ui.overlay.bottomRight.textContent = lines(
      w && this.slice?.monochrome ? `W ${Math.round(w.width)} L ${Math.round(w.center)}` : undefined,
      t('Zoom {{percent}}%', { percent: Math.round(this.stage.zoom * 100) }),
    );
  }

  private bind(): void {
    const ui = this.ui;
    ui.close.addEventListener('click', () => this.credential.post({ action: 'close-viewer' }));
    ui.reset.addEventListener('click', () => this.resetView());
    ui.play.addEventListener('click', () => this.toggleCine());
    ui.modes.wl.addEventListener('click', () => this.setMode('wl'));
    ui.modes.pan.addEventListener('click', () => this.setMode('pan'));
    ui.modes.zoom.addEventListener('click', () => this.setMode('zoom'));
    this.setMode('wl');
    ui.slider.addEventListener('input', () => void this.show(Number(ui.slider.value)));
    ui.presets.addEventListener('change', () => {
      if (!this.slice || !ui.presets.value) return;
      this.window = presetWindow(this.slice, ui.presets.value);
      this.render();
    });
    ui.stage.addEventListener(
      'wheel',
      (event) => {
        event.preventDefault();
        if (event.ctrlKey) this.stage.zoomBy(event.deltaY < 0 ? 1.1 : 1 / 1.1);
        else this.step(event.deltaY > 0 ? 1 : -1);
        this.updateOverlay();
      },
      { passive: false },
    );
    window.addEventListener('keydown', (event) => {
      const keys: Record<string, () => void> = {
        ArrowDown: () => this.step(1),
        ArrowRight: () => this.step(1),
        PageDown: () => this.step(10),
        ArrowUp: () => this.step(-1),
        ArrowLeft: () => this.step(-1),
        PageUp: () => this.step(-10),
        Home: () => void this.show(0),
        End: () => void this.show((this.store?.length ?? 1) - 1),
        r: () => this.resetView(),
        ' ': () => this.toggleCine(),
      };
      const action = keys[event.key];
      if (!action || event.target instanceof HTMLSelectElement) return;
      event.preventDefault();
      action();
    });
    this.bindDrag();
  }

  /** Left drag does the chosen mode; middle drag pans; right drag zooms. */
  private bindDrag(): void {
    const stage = this.ui.stage;
    let last: { x: number; y: number; mode: Mode } | undefined;
    let frame: number | undefined;
    stage.addEventListener('contextmenu', (event) => event.preventDefault());
    stage.addEventListener('pointerdown', (event) => {
      stage.setPointerCapture(event.pointerId);
      const mode: Mode = event.button === 1 ? 'pan' : event.button === 2 ? 'zoom' : this.mode;
      last = { x: event.clientX, y: event.clientY, mode };
    });
    stage.addEventListener('pointermove', (event) => {
      if (!last) return;
      const dx = event.clientX - last.x;
      const dy = event.clientY - last.y;
      last = { ...last, x: event.clientX, y: event.clientY };
      if (last.mode === 'pan') this.stage.panBy(dx, dy);
      else if (last.mode === 'zoom') this.stage.zoomBy(Math.exp(-dy / 200));
      else if (this.window && this.slice?.monochrome) {
        // Sensitivity follows the current width, so narrow and wide windows both feel usable.
        const scale = Math.max(1, this.window.width / 256);
        this.window = {
          center: this.window.center + dy * scale,
          width: Math.max(1, this.window.width + dx * scale),
        };
        frame ??= requestAnimationFrame(() => {
          frame = undefined;
          this.render();
        });
        return;
      }
      this.updateOverlay();
    });
    const end = () => (last = undefined);
    stage.addEventListener('pointerup', end);
    stage.addEventListener('pointercancel', end);
  }
}
