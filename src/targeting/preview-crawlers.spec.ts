import { isPreviewCrawler } from './preview-crawlers';

describe('isPreviewCrawler', () => {
  it.each([
    ['Facebook', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)'],
    ['X', 'Twitterbot/1.0'],
    ['LinkedIn', 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)'],
    ['Slack', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
    ['Discord', 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)'],
    ['WhatsApp', 'WhatsApp/2.23.20.0 A'],
    ['Telegram', 'TelegramBot (like TwitterBot)'],
    [
      'iMessage',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) facebookexternalhit/1.1 Facebot Twitterbot/1.0',
    ],
  ])('knows the crawler of %s', (_network, userAgent) => {
    expect(isPreviewCrawler(userAgent)).toBe(true);
  });

  it.each([
    ['a search engine', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    [
      'a person on an iPhone',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile',
    ],
    ['a command-line client', 'curl/8.5.0'],
    ['no agent', undefined],
  ])('sends %s on', (_label, userAgent) => {
    expect(isPreviewCrawler(userAgent)).toBe(false);
  });
});
