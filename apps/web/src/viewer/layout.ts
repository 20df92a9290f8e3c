import { t } from '../lib/i18n';

/** The viewer's DOM: series list, toolbar, stage with overlay corners, slice slider. */
export interface ViewerLayout {
  seriesList: HTMLElement;
  stage: HTMLElement;
  presets: HTMLSelectElement;
  modes: Record<'wl' | 'pan' | 'zoom', HTMLButtonElement>;
  reset: HTMLButtonElement;
  play: HTMLButtonElement;
  close: HTMLButtonElement;
  slider: HTMLInputElement;
  overlay: Record<'topLeft' | 'topRight' | 'bottomLeft' | 'bottomRight', HTMLElement>;
  status: HTMLElement;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { className?: string } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

const button = (label: string, title: string) =>
  element('button', { type: 'button', textContent: label, title });

export function buildLayout(root: HTMLElement): ViewerLayout {
  const seriesList = element('nav', { className: 'series', ariaLabel: t('Series') });
  const presets = element('select', { ariaLabel: t('Window preset'), title: t('Window presets') });
  const modes = {
    wl: button(t('W/L'), t('Drag to change window and level')),
    pan: button(t('Pan'), t('Drag to pan')),
    zoom: button(t('Zoom'), t('Drag up and down to zoom')),
  };
  const reset = button(t('Reset'), t('Reset window, zoom and pan (R)'));
  const play = button(t('Play'), t('Play or pause (Space)'));
  const close = button(t('Close'), t('Close the viewer'));
  close.className = 'close';
  const slider = element('input', { type: 'range', min: '0', max: '0', value: '0', ariaLabel: t('Slice') });
  const overlay = {
    topLeft: element('div', { className: 'corner top-left' }),
    topRight: element('div', { className: 'corner top-right' }),
    bottomLeft: element('div', { className: 'corner bottom-left' }),
    bottomRight: element('div', { className: 'corner bottom-right' }),
  };
  const status = element('div', { className: 'status', role: 'status' });
  const stage = element('div', { className: 'stage', tabIndex: 0 }, ...Object.values(overlay), status);
  const toolbar = element(
    'div',
    { className: 'toolbar', role: 'toolbar' },
    presets,
    modes.wl,
    modes.pan,
    modes.zoom,
    reset,
    play,
    element('span', { className: 'spacer' }),
    close,
  );
  root.replaceChildren(seriesList, element('main', {}, toolbar, stage, slider));
  return { seriesList, stage, presets, modes, reset, play, close, slider, overlay, status };
}

export function seriesButton(
  label: string,
  count: number,
): { button: HTMLButtonElement; image: HTMLImageElement } {
  const image = element('img', { alt: '', width: 96, height: 96 });
  const buttonNode = element(
    'button',
    { type: 'button', className: 'series-item' },
    image,
    element('span', { textContent: label }),
    element('small', { textContent: `${count} image${count === 1 ? '' : 's'}` }),
  );
  return { button: buttonNode, image };
}
