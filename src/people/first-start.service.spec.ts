import { firstKeyMessage } from './first-start.service';

describe('the first key as the first start prints it', () => {
  const message = firstKeyMessage({ id: 1, name: 'Default' }, 'lsk_secret', 'https://sho.rt');

  it('shows the key on a line of its own', () => {
    expect(message).toContain('\n    lsk_secret\n');
  });

  it('says where to sign in with it, and how to make another', () => {
    expect(message).toContain('Sign in with it at https://sho.rt/app');
    expect(message).toContain('https://sho.rt/docs');
    expect(message).toContain('npm run cli -- key:create --account 1\n');
  });
});
