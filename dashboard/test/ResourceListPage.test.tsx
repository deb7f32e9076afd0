import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ResourceListPage, type RowActions } from '../src/components/ResourceListPage';
import { LIST_DEFAULTS } from '../src/hooks/listQuery';
import { useResourceList, type ListPage } from '../src/hooks/useResourceList';
import { listOf } from './api';
import { renderSignedIn } from './render';

interface Thing {
  id: number;
  name: string;
  size: number;
}

const DEFAULTS = { ...LIST_DEFAULTS, kind: '' };
const ROWS: Thing[] = [
  { id: 1, name: 'Alpha', size: 3 },
  { id: 2, name: 'Beta', size: 5 },
];

interface Options {
  rows?: Thing[];
  mayWrite?: boolean;
  actions?: RowActions<Thing>;
  actionsForReaders?: boolean;
  /** What the form's Save answers: the saved row and, for a create that makes one, its secret. */
  saved?: { row: Thing; secret?: string };
  /** The page's own way to create, instead of the form dialog. */
  create?: () => void;
  rowName?: (thing: Thing) => string;
}

/** A made-up resource, so that the page is tried for what it draws itself rather than for one feature's page. */
function ThingsPage({
  load,
  remove,
  options,
}: {
  load: (query: object) => void;
  remove: (row: Thing) => void;
  options: Options;
}) {
  const list = useResourceList(
    DEFAULTS,
    (values) => ({ search: values.search, kind: values.kind, page: values.page }),
    (query) => {
      load(query);
      // The envelope's page links are typed apart from the generated schema's.
      return Promise.resolve(listOf(options.rows ?? ROWS) as unknown as ListPage<Thing>);
    },
  );
  return (
    <ResourceListPage
      texts={{
        title: 'Things',
        new: 'New thing',
        filters: 'Search things',
        pages: 'Pages of things',
        empty: 'No things yet.',
        intro: 'Things are things.',
        saved: (name) => `Thing saved: ${name}`,
        secret: { title: (name) => `Secret of ${name}`, what: 'Thing secret' },
      }}
      list={list}
      mayWrite={options.mayWrite ?? true}
      sortBy={['id', 'name']}
      filters={<button onClick={() => list.update({ kind: 'big' })}>Big only</button>}
      columns={[
        { label: 'Name', cell: (thing) => thing.name },
        {
          label: 'Size',
          className: 'number',
          title: (thing) => `${thing.size} units`,
          cell: (thing) => String(thing.size),
        },
      ]}
      actions={options.actions}
      create={options.create}
      rowName={options.rowName}
      tableClassName="things-table"
      headerActions={<button>Export things</button>}
      headerNotice={<p role="alert">Export failed</p>}
      actionsForReaders={options.actionsForReaders}
      form={(thing, onSaved, onClose) => (
        <div role="dialog" aria-label={thing ? `Edit ${thing.name}` : 'New thing'}>
          <button onClick={() => options.saved && onSaved(options.saved.row, options.saved.secret)}>
            Save
          </button>
          <button onClick={onClose}>Close</button>
        </div>
      )}
      removal={{
        label: 'Drop',
        title: 'Drop this thing?',
        confirm: (name) => `${name} will be dropped.`,
        done: (name) => `Thing dropped: ${name}`,
        run: (thing) => {
          remove(thing);
          return Promise.resolve();
        },
      }}
    />
  );
}

async function renderThings(options: Options = {}, path = '/things') {
  const load = vi.fn();
  const remove = vi.fn();
  const view = await renderSignedIn(<ThingsPage load={load} remove={remove} options={options} />, { path });
  return { ...view, load, remove, user: userEvent.setup({ delay: null }) };
}

describe('a resource list page', () => {
  it('draws the table from its columns: the first names the row, each cell labelled by its column', async () => {
    await renderThings();

    const table = await screen.findByRole('table', { name: 'Things' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Size', 'Actions']);
    const alpha = within(table).getByRole('rowheader', { name: 'Alpha' });
    expect(alpha).toHaveAttribute('data-label', 'Name');
    const size = within(alpha.closest('tr')!).getByText('3');
    expect(size).toHaveAttribute('data-label', 'Size');
    expect(size).toHaveClass('number');
    expect(size).toHaveAttribute('title', '3 units');
    expect(table).toHaveClass('table', 'things-table');
    expect(screen.getByText('Things are things.')).toBeInTheDocument();
  });

  it('offers Edit and the removal on each row, named by the row, to a reader who may write', async () => {
    await renderThings();

    const row = (await screen.findByRole('rowheader', { name: 'Beta' })).closest('tr')!;
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Edit Beta', 'Drop Beta']);
  });

  it('has no create button and no actions column for a reader who may not write', async () => {
    await renderThings({ mayWrite: false });

    await screen.findByRole('rowheader', { name: 'Alpha' });
    expect(screen.queryByRole('button', { name: 'New thing' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument();
  });

  it("keeps the actions column for readers when the page's own actions are read-only ones", async () => {
    await renderThings({
      mayWrite: false,
      actionsForReaders: true,
      actions: (thing) => <a href={`/things/${thing.id}`}>Open {thing.name}</a>,
    });

    expect(await screen.findByRole('link', { name: 'Open Alpha' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Actions' })).toBeInTheDocument();
  });

  it("counts the list's own filters as narrowing it, and Show all clears them with the search", async () => {
    const { load, location, user } = await renderThings({ rows: [] }, '/things?search=zz&kind=big&sort=asc');

    expect(await screen.findByText('Nothing matches.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show all' }));

    await waitFor(() => expect(location.history?.at(-1)).toBe('/things?sort=asc'));
    await waitFor(() => expect(load).toHaveBeenLastCalledWith({ search: '', kind: '', page: '1' }));
  });

  it('says nothing exists yet when only the order differs from the defaults', async () => {
    await renderThings({ rows: [] }, '/things?sort=asc&per_page=50');

    expect(await screen.findByText('No things yet.')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'New thing' })).toHaveLength(2);
  });

  it('keeps a filter in the address and loads again for it, from the first page', async () => {
    const { load, location, user } = await renderThings({}, '/things?page=2');

    await user.click(await screen.findByRole('button', { name: 'Big only' }));

    await waitFor(() => expect(location.history?.at(-1)).toBe('/things?kind=big'));
    await waitFor(() => expect(load).toHaveBeenLastCalledWith({ search: '', kind: 'big', page: '1' }));
  });

  it('asks before the removal, runs it for that row, says so and loads the list again', async () => {
    const { load, remove, user } = await renderThings();
    await user.click(await screen.findByRole('button', { name: 'Drop Beta' }));

    const dialog = await screen.findByRole('dialog', { name: 'Drop this thing?' });
    expect(within(dialog).getByText('Beta will be dropped.')).toBeInTheDocument();
    const loads = load.mock.calls.length;
    await user.click(within(dialog).getByRole('button', { name: 'Drop' }));

    expect(remove).toHaveBeenCalledWith(ROWS[1]);
    expect(await screen.findByText('Thing dropped: Beta')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Drop this thing?' })).not.toBeInTheDocument();
    await waitFor(() => expect(load.mock.calls.length).toBeGreaterThan(loads));
  });

  it('opens the form for a row, and on save closes it and says the row was saved', async () => {
    const { user } = await renderThings({ saved: { row: ROWS[0]! } });
    await user.click(await screen.findByRole('button', { name: 'Edit Alpha' }));

    const form = screen.getByRole('dialog', { name: 'Edit Alpha' });
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Thing saved: Alpha')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Edit Alpha' })).not.toBeInTheDocument();
  });

  it('shows a secret given on save once, instead of the saved message', async () => {
    const made = { id: 3, name: 'Gamma', size: 1 };
    const { user } = await renderThings({ saved: { row: made, secret: 's3cr3t' } });
    await user.click((await screen.findAllByRole('button', { name: 'New thing' }))[0]!);
    await user.click(
      within(screen.getByRole('dialog', { name: 'New thing' })).getByRole('button', { name: 'Save' }),
    );

    const shown = await screen.findByRole('dialog', { name: 'Secret of Gamma' });
    expect(within(shown).getByTestId('secret')).toHaveTextContent('s3cr3t');
    expect(screen.queryByText('Thing saved: Gamma')).not.toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: /stored/i }));
    expect(screen.queryByRole('dialog', { name: 'Secret of Gamma' })).not.toBeInTheDocument();
  });

  it('names rows as the page says, in their buttons and in the message after a removal', async () => {
    const { user } = await renderThings({ rowName: (thing) => `thing ${thing.id}` });

    await user.click(await screen.findByRole('button', { name: 'Drop thing 2' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Drop this thing?' })).getByRole('button', { name: 'Drop' }),
    );
    expect(await screen.findByText('Thing dropped: thing 2')).toBeInTheDocument();
  });

  it("creates the page's own way when it has one, and shows its header buttons and notice", async () => {
    const create = vi.fn();
    const { user } = await renderThings({ create });

    const header = (await screen.findByRole('heading', { name: 'Things' })).closest('header')!;
    expect(
      within(header)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['New thing', 'Export things']);
    expect(screen.getByRole('alert')).toHaveTextContent('Export failed');
    await user.click(within(header).getByRole('button', { name: 'New thing' }));
    expect(create).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
