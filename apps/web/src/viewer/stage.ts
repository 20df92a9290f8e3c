import { t } from '../lib/i18n';

/**
 * The drawing surface: the current frame is rendered into an offscreen canvas at image size, then
 * drawn fitted to the visible canvas with the user's zoom and pan (so zooming never re-renders).
 */
export class Stage {
  readonly canvas: HTMLCanvasElement;
  private readonly offscreen = document.createElement('canvas');
  private imageData: ImageData | undefined;
  zoom = 1;
  panX = 0;
  panY = 0;

  constructor(private readonly container: HTMLElement) {
    this.canvas = document.createElement('canvas');
    this.canvas.id = 'viewer-canvas';
    this.canvas.setAttribute('aria-label', t('Image'));
    container.append(this.canvas);
    new ResizeObserver(() => this.draw()).observe(container);
  }

  /** A reusable RGBA buffer of the given size for the next frame. */
  buffer(width: number, height: number): ImageData {
    if (!this.imageData || this.imageData.width !== width || this.imageData.height !== height) {
      this.offscreen.width = width;
      this.offscreen.height = height;
      this.imageData = new ImageData(width, height);
    }
    return this.imageData;
  }

  /** Shows what was rendered into `buffer()`. */
  commit(): void {
    if (!this.imageData) return;
    this.offscreen.getContext('2d')!.putImageData(this.imageData, 0, 0);
    this.draw();
  }

  reset(): void {
    this.zoom = 1;
    this.panX = 0;
    this.panY = 0;
    this.draw();
  }

  zoomBy(factor: number): void {
    this.zoom = Math.min(20, Math.max(0.1, this.zoom * factor));
    this.draw();
  }

  panBy(dx: number, dy: number): void {
    this.panX += dx;
    this.panY += dy;
    this.draw();
  }

  draw(): void {
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(this.container.clientWidth * ratio));
    const height = Math.max(1, Math.round(this.container.clientHeight * ratio));
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    const context = this.canvas.getContext('2d')!;
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.fillStyle = '#000';
    context.fillRect(0, 0, width, height);
    if (!this.imageData) return;
    const fit = Math.min(width / this.offscreen.width, height / this.offscreen.height) * this.zoom;
    context.imageSmoothingEnabled = fit < 1;
    context.translate(width / 2 + this.panX * ratio, height / 2 + this.panY * ratio);
    context.scale(fit, fit);
    context.drawImage(this.offscreen, -this.offscreen.width / 2, -this.offscreen.height / 2);
  }
}
