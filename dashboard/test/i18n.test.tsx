import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { catalogues } from '../src/i18n/catalogues';
import { en } from '../src/i18n/en';
import { json, mockApi } from './api';

/** Every path to a text of a catalogue (keys may hold dots: `account.read`), functions included. */
function paths(value: object, prefix: string[] = []): string[][] {
  return Object.entries(value).flatMap(([key, item]) =>
    typeof item === 'object' && item !== null ? paths(item as object, [...prefix, key]) : [[...prefix, key]],
  );
}

const named = (path: string[]) => path.join(' › ');

describe('the catalogues', () => {
  it('have every text of the English one and nothing else, none of them empty', () => {
    const reference = paths(en);
    for (const [language, messages] of Object.entries(catalogues)) {
      expect(paths(messages).map(named).sort(), language).toEqual(reference.map(named).sort());
      for (const path of reference) {
        const text = path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], messages);
        const present = typeof text === 'function' || (typeof text === 'string' && text.length > 0);
        expect(present, `${language} ${named(path)}`).toBe(true);
      }
    }
  });

  it("start in the browser's language and switch with the picker", async () => {
    Object.defineProperty(navigator, 'languages', { value: ['de-AT', 'en'], configurable: true });
    mockApi({ 'GET /api/v1/session': () => json(401, { message: 'Unauthenticated.', status: 401 }) });
    const user = userEvent.setup({ delay: null });
    render(<App />);

    expect(await screen.findByRole('heading', { name: 'Anmelden' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('de');

    await user.selectOptions(screen.getByLabelText('Sprache'), 'Français');

    expect(screen.getByRole('heading', { name: 'Connexion' })).toBeInTheDocument();
    expect(screen.getByLabelText('Mot de passe')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Se connecter avec une clé d’API' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('fr');
    Object.defineProperty(navigator, 'languages', { value: ['en-US', 'en'], configurable: true });
  });
});
