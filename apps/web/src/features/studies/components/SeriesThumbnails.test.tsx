import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { SeriesThumbnail } from '@imaging-inbox/contract';
import { setSid } from '../../../lib/storage';
import { apiStub, testQueryClient } from '../../../test/render';
import { newStudy } from '../../../test/factories';
import { StudySummary } from './StudySummary';

const series = (n: number, description: string, modality: string): SeriesThumbnail => ({
  series_uid: `1.2.3.${n}`,
  series_number: n,
  description,
  modality,
  image_count: n * 10,
  url: `/dicomweb/studies/1.2.3/series/1.2.3.${n}/thumbnail`,
  video_url: null,
});

afterEach(() => vi.unstubAllGlobals());

describe('StudySummary series thumbnails', () => {
  it('shows one lazily loaded thumbnail per series, with the sid and the description as alt text', async () => {
    setSid('sid-123');
    const calls: URL[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(
        apiStub({
          'study/thumbnails': (_body, url) => {
            calls.push(url);
            return [
              200,
              {
                status: 'OK',
                thumbnails: [series(1, 'AXIAL CT', 'CT'), series(2, 'CORONAL', 'CT'), series(3, '', 'MR')],
              },
            ];
          },
        }),
      ),
    );
    const study = newStudy({ uuid: 'study-thumbs' });
    render(
      <QueryClientProvider client={testQueryClient()}>
        <StudySummary study={study} />
      </QueryClientProvider>,
    );
    const images = await screen.findAllByRole('img');
    expect(images).toHaveLength(3);
    expect(images.map((img) => img.getAttribute('alt'))).toEqual(['AXIAL CT', 'CORONAL', 'MR 3']);
    for (const img of images) expect(img.getAttribute('loading')).toBe('lazy');
    expect(images[0]!.getAttribute('src')).toBe(
      '/dicomweb/studies/1.2.3/series/1.2.3.1/thumbnail?sid=sid-123&viewport=128%2C128',
    );
    expect(calls[0]?.searchParams.get('uuid')).toBe('study-thumbs');
    expect(screen.getByText('CT · 10 images')).toBeTruthy();
  });

  it('shows a No preview tile for a series without images, and for an image that fails to load', async () => {
    setSid('sid-123');
    vi.stubGlobal(
      'fetch',
      vi.fn(
        apiStub({
          'study/thumbnails': () => [
            200,
            {
              status: 'OK',
              thumbnails: [series(1, 'AXIAL CT', 'CT'), { ...series(2, 'Outside report', 'DOC'), url: null }],
            },
          ],
        }),
      ),
    );
    render(
      <QueryClientProvider client={testQueryClient()}>
        <StudySummary study={newStudy({ uuid: 'study-doc' })} />
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('img', { name: 'Outside report: no preview' })).toBeTruthy();
    const ct = screen.getByRole('img', { name: 'AXIAL CT' });
    fireEvent.error(ct);
    expect(await screen.findByRole('img', { name: 'AXIAL CT: no preview' })).toBeTruthy();
    expect(screen.getAllByText('No preview')).toHaveLength(2);
  });

  it('shows a play tile for a video series, which opens the video with the sid, and no broken image', async () => {
    setSid('sid-123');
    const videoUrl = '/dicomweb/studies/1.2.3/series/1.2.3.2/instances/1.2.3.2.1/rendered';
    vi.stubGlobal(
      'fetch',
      vi.fn(
        apiStub({
          'study/thumbnails': () => [
            200,
            {
              status: 'OK',
              thumbnails: [
                series(1, 'AXIAL CT', 'CT'),
                { ...series(2, 'wound.mp4', 'XC'), image_count: 1, url: null, video_url: videoUrl },
              ],
            },
          ],
        }),
      ),
    );
    render(
      <QueryClientProvider client={testQueryClient()}>
        <StudySummary study={newStudy({ uuid: 'study-video' })} />
      </QueryClientProvider>,
    );
    const play = await screen.findByRole('button', { name: 'Play video wound.mp4' });
    // Only the CT series draws a picture; the video series neither loads an image nor says "No preview".
    expect(screen.getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual(['AXIAL CT']);
    expect(screen.queryByText('No preview')).toBeNull();
    expect(screen.getByText('XC · Video')).toBeTruthy();
    fireEvent.click(play);
    const dialog = await screen.findByRole('dialog');
    const video = dialog.querySelector('video')!;
    expect(video.getAttribute('src')).toBe(`${videoUrl}?sid=sid-123`);
    expect(video.hasAttribute('controls')).toBe(true);
    fireEvent.error(video);
    expect(await screen.findByText('This video cannot be played in the browser.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
  });
});
