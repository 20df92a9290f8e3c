import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderRoutes } from '../../test/render';
import { uploadStore } from '../../features/upload';
import { UploadButton } from './UploadButton';

const MB = 1024 * 1024;

describe('UploadButton', () => {
  afterEach(() => uploadStore.set(null));

  const render = () =>
    renderRoutes(
      [
        { path: '/group/list', element: <UploadButton /> },
        { path: '/study/upload', element: <div>wizard</div> },
      ],
      '/group/list',
    );

  it('goes to the wizard when no upload runs', async () => {
    render();
    fireEvent.click(screen.getByRole('button', { name: 'Upload exams' }));
    expect(await screen.findByText('wizard')).toBeTruthy();
  });

  it('shows uploaded of total MB while uploading and does nothing when clicked', () => {
    uploadStore.set({
      id: 1,
      status: 'uploading',
      namespaceId: 'ns',
      destinationName: 'Emergency',
      totalBytes: 4 * MB,
      uploadedBytes: 1 * MB,
      answered: 1,
      fileCount: 4,
      studies: [],
      failures: [],
    });
    const { router } = render();
    expect(screen.getByRole('status').textContent).toBe('1.0 MB of 4.0 MB (25%)');
    fireEvent.click(screen.getByRole('button', { name: 'Upload in progress' }));
    expect(router.state.location.pathname).toBe('/group/list');
  });
});
