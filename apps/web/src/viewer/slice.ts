import { DicomParser, Index, WindowLevel, createImage, createView } from 'dwv';
import type { View } from 'dwv';

/** One instance decoded by dwv: its image, a dwv View (modality LUT, VOI window, colour) and size. */
export interface DecodedSlice {
  view: View;
  width: number;
  height: number;
  frames: number;
  monochrome: boolean;
  /** Window presets dwv offers for this modality (CT: mediastinum, lung, bone, brain, head). */
  presets: string[];
  /** The dimension that holds frames (dwv puts multi-frame data on the 4th). */
  frameDim: number;
  dims: number;
}

export interface Window {
  center: number;
  width: number;
}

/** Parses a Part-10 file (native pixels) into a dwv image and view. */
export function decodeSlice(buffer: ArrayBuffer): DecodedSlice {
  const parser = new DicomParser();
  parser.parse(buffer);
  const elements = parser.getDicomElements();
  const image = createImage(elements);
  const view = createView(elements, image);
  const size = image.getGeometry().getSize().getValues();
  const frameDim = size.length > 3 ? 3 : 2;
  return {
    view,
    width: size[0] ?? 0,
    height: size[1] ?? 0,
    frames: size[frameDim] ?? 1,
    monochrome: image.isMonochrome(),
    presets: view.getWindowPresetsNames().filter((name) => name !== 'manual'),
    frameDim,
    dims: size.length,
  };
}

export function currentWindow(slice: DecodedSlice): Window {
  const wl = slice.view.getWindowLevel();
  return { center: wl.center, width: wl.width };
}

/** Window of a dwv preset by name (the view is left on that preset). */
export function presetWindow(slice: DecodedSlice, name: string): Window {
  slice.view.setWindowLevelPreset(name, true);
  return currentWindow(slice);
}

/** Draws one frame with the given window into `target` (RGBA, the slice's size). */
export function renderSlice(
  slice: DecodedSlice,
  frame: number,
  window: Window | undefined,
  target: ImageData,
) {
  if (window && slice.monochrome) {
    slice.view.setWindowLevel(new WindowLevel(window.center, Math.max(1, window.width)), undefined, true);
  }
  const values = new Array<number>(slice.dims).fill(0);
  values[slice.frameDim] = Math.min(Math.max(0, frame), slice.frames - 1);
  slice.view.generateImageData(target, new Index(values));
}
