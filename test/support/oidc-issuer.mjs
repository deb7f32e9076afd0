// An OpenID Connect issuer for the single sign-on tests (oidc-provider, a certified OpenID provider), run as a
// process of its own: PORT, REDIRECT_URI. Its development sign-in takes any login and password; the login is the
// person's email, verified unless it starts with "unverified".
import Provider from 'oidc-provider';

const port = Number(process.env.PORT);
const provider = new Provider(`http://localhost:${port}`, {
  clients: [
    {
      client_id: 'shortlink',
      client_secret: 'a client secret of the tests',
      redirect_uris: [process.env.REDIRECT_URI],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  cookies: { keys: ['the tests issuer cookie key'] },
  pkce: { required: () => true },
  /** @param {unknown} _context @param {string} id */
  findAccount(_context, id) {
    return {
      accountId: id,
      claims: () => ({
        sub: id,
        email: id,
        email_verified: !id.startsWith('unverified'),
        name: `Named ${id.split('@')[0]}`,
      }),
    };
  },
});
provider.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
