import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useShortcuts } from '../src/hooks/useShortcuts';

function Page({ onNew, onHelp }: { onNew: () => void; onHelp: () => void }) {
  useShortcuts({ n: onNew, '?': onHelp });
  return (
    <>
      <label>
        Search <input type="search" />
      </label>
      <label>
        Note <textarea />
      </label>
      <label>
        Pick{' '}
        <select>
          <option>one</option>
        </select>
      </label>
      <div contentEditable role="textbox" aria-label="Editable" tabIndex={0} />
      <label>
        Row <input type="checkbox" />
      </label>
      <button type="button">Elsewhere</button>
    </>
  );
}

function setup() {
  const onNew = vi.fn();
  const onHelp = vi.fn();
  render(<Page onNew={onNew} onHelp={onHelp} />);
  return { onNew, onHelp, user: userEvent.setup({ delay: null }) };
}

describe('useShortcuts', () => {
  it('fires on its key from the page, a checkbox or a button, Shift included (?)', async () => {
    const { onNew, onHelp, user } = setup();
    await user.keyboard('n');
    await user.click(screen.getByRole('checkbox', { name: 'Row' }));
    await user.keyboard('n');
    screen.getByRole('button', { name: 'Elsewhere' }).focus();
    await user.keyboard('?');
    expect(onNew).toHaveBeenCalledTimes(2);
    expect(onHelp).toHaveBeenCalledTimes(1);
  });

  it('never fires while typing in an input, a textarea, a select or an editable element', async () => {
    const { onNew, user } = setup();
    for (const field of [
      screen.getByRole('searchbox', { name: 'Search' }),
      screen.getByRole('textbox', { name: 'Note' }),
      screen.getByRole('combobox', { name: 'Pick' }),
      screen.getByRole('textbox', { name: 'Editable' }),
    ]) {
      field.focus();
      await user.keyboard('n');
    }
    expect(onNew).not.toHaveBeenCalled();
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('n');
  });

  it('never fires with Ctrl, Meta or Alt held', async () => {
    const { onNew, user } = setup();
    await user.keyboard('{Control>}n{/Control}{Meta>}n{/Meta}{Alt>}n{/Alt}');
    expect(onNew).not.toHaveBeenCalled();
  });

  it('never fires while a dialog is open', async () => {
    const { onNew, user } = setup();
    const dialog = document.createElement('dialog');
    dialog.open = true;
    document.body.append(dialog);
    await user.keyboard('n');
    dialog.remove();
    expect(onNew).not.toHaveBeenCalled();
  });

  it("leaves the key's default alone when its shortcut answers that it was not for it", () => {
    function Arrows() {
      useShortcuts({ ArrowDown: () => false, j: () => undefined });
      return null;
    }
    render(<Arrows />);
    const press = (key: string) => {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      document.body.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(press('ArrowDown')).toBe(false);
    expect(press('j')).toBe(true);
  });
});
