import { startedMessage } from './app';

describe('the start line', () => {
  it('names the port, the public URL, the dashboard and the API docs', () => {
    expect(startedMessage({ port: 3000, appUrl: 'https://sho.rt' })).toBe(
      'Listening on port 3000; public URL https://sho.rt; dashboard https://sho.rt/app; API docs https://sho.rt/docs\n',
    );
  });
});
