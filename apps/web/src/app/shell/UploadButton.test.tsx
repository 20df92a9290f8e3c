import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderRoutes } from '../../test/render';
import { newGroup, permissionFlags } from '../../test/factories';
import { uploadStore } from '../../features/upload';
import { toInboxGroups } from '../../session/groups';
import { InboxContext, type InboxContextValue } from '../../session/inbox-context';
import { UploadButton } from './UploadButton';

const MB = 1024 * 1024;

describe('UploadButton', () => {
  afterEach(() => uploadStore.set(null));

  const uploader = [newGroup({ type: 'CLOUD' })];
  const render = (groups = uploader) => {
    const inbox = { groups: toInboxGroups(groups) } as InboxContextValue;
    return renderRoutes(
      [
        {
          path: '/group/list',
          element: (
            <InboxContext.Provider value={inbox}>
              <UploadButton />
            </InboxContext.Provider>
          ),
        },
        { path: '/study/upload', element: <div>wizard</div> },
      ],
      '/group/list',
    );
  };

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

  it('is disabled, with the reason, for a user who cannot upload to any group', () => {
    render([
      newGroup({ type: 'CLOUD', permissions: permissionFlags(['study_view']) }),
      newGroup({ type: 'LIBRARY' }),
    ]);
    const button = screen.getByRole('button', { name: 'Upload exams' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBe('upload-unavailable');
    expect(screen.getByText('None of your groups takes uploads.')).toBeTruthy();
  });
});
