import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { TagInput } from '../src/features/tags/TagInput';
import { tagColors } from '../src/features/tags/tagNames';
import { json, listOf } from './api';
import { tag } from './fixtures';
import { renderSignedIn } from './render';

const TAGS = [tag({ id: 1, name: 'Spring sale', color: 2 }), tag({ id: 2, name: 'Springfield', color: 3 })];

/** The input as a form holds it: its names in state, each change recorded, and the form's own Enter. */
function Tags(props: { initial: string[]; changed: (names: string[]) => void; submitted: () => void }) {
  const [names, setNames] = useState(props.initial);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        props.submitted();
      }}
    >
      <TagInput
        label="Tags"
        hint="Enter or a comma adds a tag."
        value={names}
        onChange={(next) => {
          setNames(next);
          props.changed(next);
        }}
        colors={tagColors([tag({ name: 'News', color: 4 })])}
      />
      <button type="submit">Save</button>
    </form>
  );
}

async function renderTags(initial: string[] = []) {
  const changed = vi.fn();
  const submitted = vi.fn();
  const view = await renderSignedIn(<Tags initial={initial} changed={changed} submitted={submitted} />, {
    routes: {
      'GET /api/v1/tags': (request) =>
        json(
          200,
          listOf(
            TAGS.filter((one) =>
              one.name.toLowerCase().includes(request.url.searchParams.get('search') ?? ''),
            ),
          ),
        ),
    },
  });
  // The chips, by their remove buttons.
  const chips = () =>
    screen
      .queryAllByRole('button', { name: /^Remove tag / })
      .map((button) => button.getAttribute('aria-label')?.replace('Remove tag ', ''));
  return { ...view, changed, submitted, chips, user: userEvent.setup({ delay: null }) };
}

describe('the tag input', () => {
  it('adds a name on Enter and on a comma, once whatever its case, and removes one by its button', async () => {
    const { user, changed, chips } = await renderTags(['News']);
    const input = screen.getByRole('combobox', { name: 'Tags' });
    expect(input).toHaveAccessibleDescription('Enter or a comma adds a tag.');
    // A known tag's chip has its colour, named.
    expect(screen.getByText('(Red)')).toHaveClass('sr-only');

    await user.type(input, 'launch{Enter}');
    await user.type(input, ' q3 ,');
    expect(chips()).toEqual(['News', 'launch', 'q3']);
    expect(input).toHaveValue('');

    // The same tag in another case is the same tag: nothing added, the text is taken.
    await user.type(input, 'NEWS{Enter}Launch,');
    expect(chips()).toEqual(['News', 'launch', 'q3']);
    expect(input).toHaveValue('');

    // Names pasted with commas are each added; what follows the last is still being typed.
    await user.click(input);
    await user.paste('a, b,c');
    expect(chips()).toEqual(['News', 'launch', 'q3', 'a', 'b']);
    expect(input).toHaveValue('c');
    await user.clear(input);

    await user.click(screen.getByRole('button', { name: 'Remove tag launch' }));
    expect(chips()).toEqual(['News', 'q3', 'a', 'b']);
    // The button went with its chip: the keyboard goes on from the field.
    expect(input).toHaveFocus();
    expect(changed).toHaveBeenLastCalledWith(['News', 'q3', 'a', 'b']);
  });

  it('works from the keyboard alone: Tab to a chip’s remove button, Enter on an empty field leaves it to the form', async () => {
    const { user, chips, submitted } = await renderTags(['one', 'two']);

    await user.tab();
    expect(screen.getByRole('button', { name: 'Remove tag one' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(chips()).toEqual(['two']);
    expect(screen.getByRole('combobox', { name: 'Tags' })).toHaveFocus();
    await user.keyboard('three{Enter}');
    expect(chips()).toEqual(['two', 'three']);
    expect(submitted).not.toHaveBeenCalled();

    await user.keyboard('{Enter}');
    expect(submitted).toHaveBeenCalledTimes(1);
  });

  it('holds 20 at most, and says so', async () => {
    const twenty = Array.from({ length: 20 }, (_, index) => `tag${index + 1}`);
    const { user, chips, changed } = await renderTags(twenty.slice(0, 19));
    const input = screen.getByRole('combobox', { name: 'Tags' });

    await user.type(input, 'tag20{Enter}');
    expect(chips()).toEqual(twenty);
    expect(input).toHaveAccessibleDescription('A link holds 20 tags at most.');

    await user.type(input, 'tag21{Enter}');
    expect(chips()).toEqual(twenty);
    // Refused, the name stays typed, to be placed once a tag is removed.
    expect(input).toHaveValue('tag21');
    expect(changed).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: 'Remove tag tag1' }));
    await user.click(input);
    await user.keyboard('{Enter}');
    expect(chips()).toEqual([...twenty.slice(1), 'tag21']);
  });

  it("offers the workspace's tags that match what is typed, chosen with the arrows, in their own spelling", async () => {
    const { user, api, chips } = await renderTags();
    const input = screen.getByRole('combobox', { name: 'Tags' });

    await user.type(input, 'spr');
    let listbox = await screen.findByRole('listbox', { name: 'Existing tags' });
    expect(api.to('GET', '/api/v1/tags').at(-1)?.url.searchParams.get('search')).toBe('spr');
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Spring sale (Green)', 'Springfield (Yellow)']);

    // Escape closes the suggestions; the arrows open them again.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    listbox = screen.getByRole('listbox', { name: 'Existing tags' });
    const second = within(listbox).getByRole('option', { name: /Springfield/ });
    expect(second).toHaveAttribute('aria-selected', 'true');
    expect(input).toHaveAttribute('aria-activedescendant', second.id);
    await user.keyboard('{Enter}');
    expect(chips()).toEqual(['Springfield']);

    // Typed in another case, an existing tag is added as the workspace writes it.
    await user.type(input, 'spring sale');
    await screen.findByRole('option', { name: /Spring sale/ });
    await user.keyboard('{Enter}');
    expect(chips()).toEqual(['Springfield', 'Spring sale']);
  });
});
