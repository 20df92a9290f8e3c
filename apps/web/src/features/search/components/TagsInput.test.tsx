import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithRouter } from '../../../test/render';
import { TagsInput } from './TagsInput';

const chipLabels = () =>
  Array.from(document.querySelectorAll('.MuiChip-label')).map((chip) => chip.textContent);

describe('TagsInput', () => {
  it('shows two tags, then how many more are selected, out of focus', () => {
    renderWithRouter(
      <TagsInput value={['urgent', 'teaching', 'follow-up', 'tumour board']} onChange={() => {}} />,
    );
    expect(chipLabels()).toEqual(['urgent', 'teaching']);
    expect(screen.getByText('+2 selected')).toBeTruthy();
  });

  it('shows every tag while there are no more than two', () => {
    renderWithRouter(<TagsInput value={['urgent', 'teaching']} onChange={() => {}} />);
    expect(chipLabels()).toEqual(['urgent', 'teaching']);
    expect(screen.queryByText(/selected$/)).toBeNull();
  });
});
