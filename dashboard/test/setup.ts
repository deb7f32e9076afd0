import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// A screen that appears after a lazy route and a fetch waits for them: 1 s, the default, is short when the API's
// suite shares the machine's two cores (npm test runs both at once).
configure({ asyncUtilTimeout: 5_000 });

// A zone with an offset, so that the conversions between the reader's time and the API's UTC are tested.
process.env.TZ = 'Europe/Paris';

// jsdom has <dialog> but not its modal methods: enough of them for the dialogs' behaviour under test.
if (typeof HTMLDialogElement !== 'undefined' && !('showModal' in HTMLDialogElement.prototype)) {
  Object.assign(HTMLDialogElement.prototype, {
    showModal(this: HTMLDialogElement) {
      this.open = true;
    },
    close(this: HTMLDialogElement) {
      this.open = false;
    },
  });
}

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});
